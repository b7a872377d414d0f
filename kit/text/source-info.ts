/**
 * pi's `sourceInfo` for a prompt template or skill (RPC `get_commands`, an extension's
 * `pi.getCommands()`): one description of where a resource came from, shared so both report it alike.
 */

/** pi's `sourceInfo` object. */
export interface ResourceSourceInfo {
  path: string;
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "top-level" | "package";
  baseDir?: string;
}

/** The `sourceInfo` of a resource at `path` whose resources origin is `origin` ("user", "project", "package:…", a path). */
export function resourceSourceInfo(path: string, origin: string): ResourceSourceInfo {
  return {
    path,
    source: "local",
    scope: origin === "user" || origin === "project" ? origin : "temporary",
    origin: origin.startsWith("package:") ? "package" : "top-level",
  };
}
