/**
 * Resources and settings: what shapes the agent's behaviour without being code the loop runs — the
 * system prompt's sections, skills, prompt templates, and pi's settings files.
 */
import { defineContract } from "../kernel/index.js";

/** Everything a system prompt section may depend on. */
export interface PromptInput {
  cwd: string;
  /** The active tools, for the tools section. */
  tools: Array<{ name: string; description: string; guidelines?: string[] }>;
  /** `--system-prompt`: replaces the default preamble. */
  systemPromptOverride?: string;
  /** `--append-system-prompt`, in order. */
  appendSystemPrompt?: string[];
  /** Skills to list (name, description, path only). */
  skills: Skill[];
  now: Date;
}

/** One part of the system prompt; sections are joined in ascending `order`. */
export interface PromptSection {
  order: number;
  /** Where it came from, for `/session` and debugging (e.g. "AGENTS.md: /repo/AGENTS.md"). */
  source: string;
  text: string;
}

/** A skill in the Agent Skills format: only name, description and path go into the prompt. */
export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md file. */
  path: string;
  /** Where it was found ("user", "project", "package:<name>", "flag"). */
  origin: string;
}

/** A prompt template invoked as `/name args`. */
export interface PromptTemplate {
  name: string;
  description: string;
  /** The body with `$1`, `$@`, `${@:N}` placeholders. */
  body: string;
  path: string;
  origin: string;
}

/** A source of prompt sections, skills and templates. Several may be active; their parts are merged. */
export interface ResourceSource {
  promptSections(input: PromptInput): Promise<PromptSection[]>;
  skills(cwd: string): Promise<Skill[]>;
  templates(cwd: string): Promise<PromptTemplate[]>;
}

export const ResourcesContract = defineContract<ResourceSource>({
  id: "resources",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  shape: { promptSections: "function", skills: "function", templates: "function" },
  methods: { promptSections: "async", skills: "async", templates: "async" },
});

/** A `/name args` line that names a registered slash command. */
export interface CommandLine {
  name: string;
  /** The text after the name, as typed ("" without any). */
  args: string;
}

/**
 * What a typed prompt means: which registered slash command a `/name` line runs, and the expansion of
 * `/skill:name args` and `/template args` over every resource source. One provider merges all sources,
 * so precedence (a command, then a skill or template, then plain text) is decided in one place and a
 * resource source only has to list what it has.
 */
export interface PromptExpander {
  /** The registered command `text` runs, or undefined when it names none (then it is a prompt). */
  commandFor(text: string): CommandLine | undefined;
  /**
   * `/skill:name args` becomes the skill file in a `<skill>` block with `args` after it; `/template args`
   * the template filled with `args`; any other text comes back as typed. An unknown skill is an error.
   */
  expandPrompt(text: string, cwd: string): Promise<string>;
}

/** Provided by the resources plugin; a distribution without it runs no commands and sends prompts as typed. */
export const PromptExpanderContract = defineContract<PromptExpander>({
  id: "resources/expander",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { commandFor: "function", expandPrompt: "function" },
  methods: { commandFor: "sync", expandPrompt: "async" },
});

/** pi's settings, global deep-merged with project; unknown keys are kept for extensions. */
export type Settings = Record<string, unknown> & {
  defaultProvider?: string;
  defaultModel?: string;
  defaultThinkingLevel?: string;
  thinkingBudgets?: Record<string, number>;
  compaction?: { enabled?: boolean; reserveTokens?: number; keepRecentTokens?: number };
  retry?: { enabled?: boolean; maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number };
  steeringMode?: "all" | "one-at-a-time";
  followUpMode?: "all" | "one-at-a-time";
  packages?: unknown[];
  mcpServers?: Record<string, unknown>;
};

/** Reads settings for a working folder; re-reads files that changed. */
export interface SettingsStore {
  get(cwd: string): Promise<Settings>;
  /** Writes one key to the global (or, with `project`, the project) settings file. */
  set(cwd: string, key: string, value: unknown, scope: "global" | "project"): Promise<void>;
}

export const SettingsContract = defineContract<SettingsStore>({
  id: "settings",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { get: "function", set: "function" },
  methods: { get: "async", set: "async" },
});

/**
 * Fills a template body with arguments as pi does: `$1`, `$2`… positional; `$@` and `$ARGUMENTS` all;
 * `${@:N}` from the Nth on; `${@:N:L}` L arguments from the Nth. One pass, so text an argument brings in
 * is never substituted again.
 */
export function fillTemplate(body: string, argText: string): string {
  const args = splitArgs(argText);
  return body.replace(
    /\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS|\$@|\$(\d+)/g,
    (_match, start?: string, length?: string, position?: string) => {
      if (position !== undefined) return args[Number(position) - 1] ?? "";
      if (start === undefined) return args.join(" ");
      const from = Math.max(0, Number(start) - 1);
      return (length === undefined ? args.slice(from) : args.slice(from, from + Number(length))).join(" ");
    },
  );
}

/** Splits a command line into arguments as pi does: quotes group (and may sit inside a word), blanks split. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === " " || ch === "\t" || ch === "\n") {
      if (current) out.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  if (current) out.push(current);
  return out;
}
