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

/**
 * The `sourceInfo` of a resource at `path` whose resources origin is `origin` ("user", "project",
 * "package:…", anything else: given on the command line). pi calls a resource found in the agent or
 * project folder "auto" and gives that folder (the part before `/prompts/` or `/skills/`) as `baseDir`.
 */
export function resourceSourceInfo(path: string, origin: string): ResourceSourceInfo {
  if (origin === "user" || origin === "project") {
    const cut = Math.max(path.lastIndexOf("/prompts/"), path.lastIndexOf("/skills/"));
    return {
      path,
      source: "auto",
      scope: origin,
      origin: "top-level",
      ...(cut > 0 && { baseDir: path.slice(0, cut) }),
    };
  }
  if (origin.startsWith("package:")) return { path, source: "local", scope: "temporary", origin: "package" };
  return { path, source: "cli", scope: "temporary", origin: "top-level" };
}
