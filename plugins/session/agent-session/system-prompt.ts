/**
 * Assembles the system prompt from every prompt source's sections, in order. Skills from all sources are
 * gathered first so whichever source renders the skills block lists them all. Without any source of
 * sections (a minimal distribution, or only sources that add skills and templates) a short built-in
 * prompt keeps the agent usable.
 */
import type { PromptInput, ResourceSource } from "pi-host";
import type { Handle } from "pi-host";

/** Builds the prompt for one turn. */
export async function buildSystemPrompt(
  sources: Array<Handle<ResourceSource>>,
  input: Omit<PromptInput, "skills"> & { skills?: PromptInput["skills"] },
): Promise<string> {
  if (sources.length === 0) return fallbackPrompt(input);
  const skills = (await Promise.all(sources.map((s) => s.api.skills(input.cwd)))).flat();
  const full: PromptInput = { ...input, skills };
  const sections = (await Promise.all(sources.map((s) => s.api.promptSections(full)))).flat();
  if (sections.length === 0) return fallbackPrompt(input);
  return sections
    .sort((a, b) => a.order - b.order)
    .map((s) => s.text.trim())
    .filter((text) => text !== "")
    .join("\n\n");
}

function fallbackPrompt(input: Omit<PromptInput, "skills">): string {
  const parts = [
    input.systemPromptOverride ??
      "You are an expert coding assistant working in the user's terminal. Use the tools to read, search, run and edit code; be concise.",
  ];
  if (input.tools.length > 0)
    parts.push(
      `Available tools:\n${input.tools.map((t) => `- ${t.name}: ${t.description.split("\n")[0]}`).join("\n")}`,
    );
  parts.push(...(input.appendSystemPrompt ?? []));
  parts.push(`Current date: ${input.now.toISOString().slice(0, 10)}\nCurrent working directory: ${input.cwd}`);
  return parts.join("\n\n");
}

/**
 * The system prompt of one run, built on its first turn and again only when the run's tool set changes:
 * prompt sources read context files and skill folders, which a run does not need to re-read every turn
 * (a new run, or /reload, picks up edits).
 */
export class SystemPromptCache {
  private cached: { key: string; prompt: string } | undefined;

  /** Forgets the prompt; the next run builds it afresh. */
  reset(): void {
    this.cached = undefined;
  }

  /** The prompt for `toolNames`, from `build` when the set changed. */
  async get(toolNames: string[], build: () => Promise<string>): Promise<string> {
    const key = toolNames.join("\n");
    if (this.cached?.key === key) return this.cached.prompt;
    const prompt = await build();
    this.cached = { key, prompt };
    return prompt;
  }
}
