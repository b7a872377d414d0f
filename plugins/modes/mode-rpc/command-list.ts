/**
 * RPC `get_commands` as pi 1.6.0 answers it: the commands hooks handle (pi extensions' registered
 * commands, `/mcp`), then the plugins' slash commands (the command contract: `/llama` and the like,
 * with the `sourceInfo` the command declares, else its plugin's), then prompt templates and skills.
 * A name listed once is not listed again, so the first of equal names is the one a prompt runs.
 */
import type { AgentHooks, ManyHandle, ResourceSource, SlashCommand } from "pi-host";
import { resourceSourceInfo } from "pi-host";

/** One entry of the answer, in pi's shape. */
export interface ListedCommand {
  name: string;
  description?: string;
  source: "extension" | "prompt" | "skill";
  sourceInfo: unknown;
}

/** Lists every slash command a prompt in `cwd` can run. */
export async function listCommands(
  cwd: string,
  hooks: ManyHandle<AgentHooks>,
  commands: ManyHandle<SlashCommand>,
  resources: ManyHandle<ResourceSource>,
): Promise<ListedCommand[]> {
  const hooked = (await Promise.all(hooks.list().map(async (h) => (await h.peek()?.commands?.()) ?? []))).flat();
  const contributed: ListedCommand[] = [];
  for (const handle of commands.list()) {
    const command = handle.peek();
    if (command === undefined) continue;
    contributed.push({
      name: command.name,
      ...(command.description !== "" && { description: command.description }),
      source: "extension",
      sourceInfo: command.sourceInfo ?? {
        path: `plugin:${handle.pluginId ?? command.name}`,
        source: "plugin",
        scope: "temporary",
        origin: "top-level",
      },
    });
  }
  const sources = resources.list();
  const templates = (await Promise.all(sources.map((s) => s.api.templates(cwd)))).flat();
  const skills = (await Promise.all(sources.map((s) => s.api.skills(cwd)))).flat();
  const all: ListedCommand[] = [
    ...hooked.map((c) => ({ ...c }) as ListedCommand),
    ...contributed,
    ...templates.map((t) => ({
      name: t.name,
      description: t.description,
      source: "prompt" as const,
      sourceInfo: resourceSourceInfo(t.path, t.origin),
    })),
    ...skills.map((s) => ({
      name: `skill:${s.name}`,
      description: s.description,
      source: "skill" as const,
      sourceInfo: resourceSourceInfo(s.path, s.origin),
    })),
  ];
  const seen = new Set<string>();
  return all.filter((c) => !seen.has(c.name) && seen.add(c.name));
}
