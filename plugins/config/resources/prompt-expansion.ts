/**
 * What a typed prompt means (PromptExpanderContract): a `/name args` line naming a registered slash
 * command runs that command; `/skill:name args` becomes the skill file's text in a `<skill>` block with
 * the arguments after it; `/template args` becomes the template's body filled with the arguments; any
 * other text goes to the model as typed. Skills and templates come from every resource source in
 * distribution order (the first of a name wins), so a source another plugin adds counts as well.
 */
import { readFile } from "node:fs/promises";
import { fillTemplate, type CommandLine, type PromptExpander, type ResourceSource } from "pi-host";
import type { Handle } from "pi-host";

/** What the expander reads at each call: the live sources and whether a command name is registered. */
export interface PromptExpansionDeps {
  sources: () => Array<Handle<ResourceSource>>;
  hasCommand: (name: string) => boolean;
}

/** A command line: the name may hold `:` and `.` (e.g. `/name:1`). */
const COMMAND_LINE = /^\/([\w:.-]+)(?:\s+([\s\S]*))?$/;
/** A skill or template line: `/skill:name args` or `/name args`. */
const RESOURCE_LINE = /^\/(skill:)?([\w.-]+)(?:\s+([\s\S]*))?$/;

/** The expander over `deps`; every call reads the sources afresh, so a reloaded source serves the next one. */
export function createPromptExpander(deps: PromptExpansionDeps): PromptExpander {
  return {
    commandFor(text: string): CommandLine | undefined {
      const line = COMMAND_LINE.exec(text.trim());
      if (line === null || !deps.hasCommand(line[1]!)) return undefined;
      return { name: line[1]!, args: line[2] ?? "" };
    },
    expandPrompt: (text: string, cwd: string) => expandResources(text, cwd, deps.sources()),
  };
}

/** `/skill:name args` and `/template args` expanded through `sources`; other text is kept. */
async function expandResources(text: string, cwd: string, sources: Array<Handle<ResourceSource>>): Promise<string> {
  const match = RESOURCE_LINE.exec(text.trim());
  if (match === null || sources.length === 0) return text;
  const [, skillPrefix, name, args = ""] = match;
  if (skillPrefix) {
    for (const source of sources) {
      const skill = (await source.api.skills(cwd)).find((s) => s.name === name);
      if (skill === undefined) continue;
      const body = await readFile(skill.path, "utf8");
      return `<skill name="${skill.name}" location="${skill.path}">\n${body.trim()}\n</skill>${args ? `\n\n${args}` : ""}`;
    }
    throw new Error(`unknown skill "${name}"; list skills with /skills or check SKILL.md frontmatter`);
  }
  for (const source of sources) {
    const template = (await source.api.templates(cwd)).find((t) => t.name === name);
    if (template !== undefined) return fillTemplate(template.body, args);
  }
  return text;
}
