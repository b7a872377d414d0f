/**
 * The prompt templates and skills pi's `pi.getCommands()` lists after the extension commands: read ahead
 * (the call is synchronous in pi) and described with pi's `sourceInfo`.
 */
import type { Handle, ResourceSource } from "pi-host";
import { resourceSourceInfo } from "pi-host";

/** A prompt template or skill, for `pi.getCommands()`. */
export interface ResourceCommand {
  name: string;
  description: string;
  source: "prompt" | "skill";
  path: string;
  origin: string;
}

/** Every template and skill the resource sources list for `cwd`; a source that fails is reported and skipped. */
export async function readResourceCommands(
  sources: ReadonlyArray<Handle<ResourceSource>>,
  cwd: string,
  report: (error: unknown) => void,
): Promise<ResourceCommand[]> {
  const out: ResourceCommand[] = [];
  for (const source of sources) {
    try {
      for (const t of await source.api.templates(cwd))
        out.push({ name: t.name, description: t.description, source: "prompt", path: t.path, origin: t.origin });
      for (const s of await source.api.skills(cwd))
        out.push({
          name: `skill:${s.name}`,
          description: s.description,
          source: "skill",
          path: s.path,
          origin: s.origin,
        });
    } catch (error) {
      report(error);
    }
  }
  return out;
}

/** One entry of `getCommands()` for a template or skill, with pi's `sourceInfo`. */
export function describeResourceCommand(r: ResourceCommand) {
  return {
    name: r.name,
    description: r.description,
    source: r.source,
    sourceInfo: resourceSourceInfo(r.path, r.origin),
  };
}
