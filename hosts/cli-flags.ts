/**
 * The `pi` command line: one table of every flag (pi's, plus ours), the parser that reads argv with it,
 * and the help text made from it, so a flag cannot be parsed without being documented. It imports
 * nothing but its two helpers, so `pi --version` and `pi --help` stay as fast as Node starts.
 */
import { splitToolList, toolSelectionProblem } from "./cli-tool-flags.js";
import { closestSpelling } from "./edit-distance.js";

/** One flag: its long name, pi's short spellings, whether it takes a value, and its help line. */
export interface FlagSpec {
  name: string;
  short?: string[];
  /** The value placeholder (`<text>`); absent for switches. */
  value?: string;
  /** The value may be left out (`--list-models [search]`). */
  optionalValue?: boolean;
  /** The value is given only as `--flag=value`, so the next argument stays a message. */
  inlineValue?: boolean;
  /** May be given more than once; every value is kept, in order. */
  repeat?: boolean;
  group: string;
  help: string;
}

/** The thinking levels `--thinking` (and the SDK's `thinking` option) accept, as pi names them. */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;
/**
 * What `--thinking` accepts: pi 1.6.0's levels, `max` included. No provider here takes more than
 * `xhigh` (OpenAI's strongest effort; Anthropic and Google think as at `high`), so `max` asks for that.
 */
const CLI_THINKING_LEVELS = [...THINKING_LEVELS, "max"] as const;
const MODES = ["text", "json", "rpc", "acp"] as const;

/** Every flag `pi` knows, in help order. */
export const FLAGS: FlagSpec[] = [
  {
    group: "Modes",
    name: "print",
    short: ["-p"],
    help: "Print the final answer and exit (also when stdin or stdout is not a terminal)",
  },
  {
    group: "Modes",
    name: "mode",
    value: "<text|json|rpc|acp>",
    help: "text = print; json = one JSON event per line; rpc = JSONL commands on stdin; acp = Agent Client Protocol for editors",
  },
  {
    group: "Modes",
    name: "compat-events",
    value: "[=0.73]",
    optionalValue: true,
    inlineValue: true,
    help: "JSON/RPC: pi 0.73's event shapes (whole partial message on every update) instead of pi 1.6's deltas",
  },
  {
    group: "Model",
    name: "model",
    value: "<provider/id[:thinking]>",
    help: "Model to use, e.g. anthropic/claude-sonnet-4-5:high or a unique id",
  },
  {
    group: "Model",
    name: "provider",
    value: "<name>",
    help: "Provider, such as anthropic, openai or google (--list-models: only its models)",
  },
  { group: "Model", name: "api-key", value: "<key>", help: "API key, overriding auth.json and environment variables" },
  {
    group: "Model",
    name: "thinking",
    value: "<level>",
    help: `Thinking level: ${CLI_THINKING_LEVELS.join(", ")} (max = xhigh, the strongest any provider here takes)`,
  },
  {
    group: "Model",
    name: "list-models",
    value: "[search]",
    optionalValue: true,
    help: "List the models with context, output limit, thinking, images and key source; with a search, only matches",
  },
  { group: "Sessions", name: "continue", short: ["-c"], help: "Continue the most recent session of this folder" },
  {
    group: "Sessions",
    name: "resume",
    short: ["-r"],
    help: "Pick a session of this folder to resume (a list on a terminal, else a table for --session)",
  },
  {
    group: "Sessions",
    name: "session",
    value: "<path|id>",
    help: "Open a session file, or the session whose id starts with <id>",
  },
  {
    group: "Sessions",
    name: "session-dir",
    value: "<dir>",
    help: "Keep sessions in <dir> (default: ~/.pi/agent/sessions/--<cwd>--)",
  },
  {
    group: "Sessions",
    name: "fork",
    value: "<path|id>",
    help: "Copy a session (file, or the id it starts with) into a new session and continue there; the original stays as it was",
  },
  { group: "Sessions", name: "session-id", value: "<id>", help: "Open this folder's session <id>, or start it" },
  { group: "Sessions", name: "no-session", help: "Keep the session in memory only; write nothing" },
  { group: "Sessions", name: "name", short: ["-n"], value: "<name>", help: "Set the session's display name" },
  {
    group: "Tools",
    name: "tools",
    short: ["-t"],
    value: "<a,b,...>",
    help: "Allow only these tools or * patterns (MCP tools stay unless an entry starts with mcp__); only +name/-name entries change the default set instead",
  },
  {
    group: "Tools",
    name: "exclude-tools",
    short: ["-xt"],
    value: "<a,b,...>",
    help: "Disable these tools or * patterns after every other choice, MCP tools included",
  },
  { group: "Tools", name: "no-tools", short: ["-nt"], help: "Disable all tools" },
  {
    group: "Prompt and resources",
    name: "system-prompt",
    value: "<text>",
    help: "Replace the default system prompt (context files and skills still follow)",
  },
  {
    group: "Prompt and resources",
    name: "append-system-prompt",
    value: "<text>",
    repeat: true,
    help: "Append text to the system prompt (repeatable)",
  },
  { group: "Prompt and resources", name: "no-mcp", help: "Start no MCP server this run: no MCP tools, no /mcp" },
  {
    group: "Prompt and resources",
    name: "skill",
    value: "<path>",
    repeat: true,
    help: "Load a skill (SKILL.md file or folder; repeatable)",
  },
  {
    group: "Prompt and resources",
    name: "no-skills",
    short: ["-ns"],
    help: "Skip skill discovery (--skill still loads)",
  },
  {
    group: "Prompt and resources",
    name: "prompt-template",
    value: "<path>",
    repeat: true,
    help: "Load a prompt template (file or folder; repeatable)",
  },
  {
    group: "Prompt and resources",
    name: "no-prompt-templates",
    short: ["-np"],
    help: "Skip prompt template discovery (--prompt-template still loads)",
  },
  {
    group: "Prompt and resources",
    name: "no-context-files",
    short: ["-nc"],
    help: "Leave AGENTS.md / CLAUDE.md out of the system prompt",
  },
  {
    group: "Prompt and resources",
    name: "extension",
    short: ["-e"],
    value: "<path>",
    repeat: true,
    help: "Load a pi extension (file or folder; repeatable)",
  },
  {
    group: "Prompt and resources",
    name: "no-extensions",
    short: ["-ne"],
    help: "Skip extension discovery (-e still loads)",
  },
  {
    group: "Plugins",
    name: "plugin",
    value: "[id=]<use>",
    repeat: true,
    help: "Add or replace a plugin for this run: a built-in name, a path, npm:<pkg> or git:<url>",
  },
  {
    group: "Plugins",
    name: "no-plugin",
    value: "<id>",
    repeat: true,
    help: "Disable a plugin for this run (repeatable)",
  },
  {
    group: "Plugins",
    name: "distribution",
    value: "<file>",
    repeat: true,
    help: 'Overlay a plugins.json; one with "extends": "none" replaces the distribution',
  },
  {
    group: "Project trust",
    name: "approve",
    short: ["-a"],
    help: "Trust this project for this run only: its .pi settings, extensions, skills, prompts, plugins and packages load",
  },
  {
    group: "Project trust",
    name: "no-approve",
    short: ["-na"],
    help: "Do not trust this project for this run, even if it was trusted before",
  },
  { group: "Plugins", name: "watch", help: "Reload file-based plugins when their source changes" },
  { group: "Plugins", name: "json", help: "pi plugins: print the list as JSON" },
  { group: "Other", name: "version", short: ["-v"], help: "Print the version and exit" },
  { group: "Other", name: "help", short: ["-h"], help: "Print this help and exit" },
];

/** What the command line asked for, typed. */
export interface CliArgs {
  print: boolean;
  mode: (typeof MODES)[number] | undefined;
  compatEvents: boolean;
  model: string | undefined;
  provider: string | undefined;
  apiKey: string | undefined;
  thinking: (typeof THINKING_LEVELS)[number] | undefined;
  /** `--list-models` with its search, or true without one. */
  listModels: string | true | undefined;
  continue: boolean;
  resume: boolean;
  session: string | undefined;
  /** `--fork`: the session file or partial id to copy into a new session. */
  fork: string | undefined;
  /** `--session-id`: the id of this folder's session to open, or of the new session. */
  sessionId: string | undefined;
  sessionDir: string | undefined;
  noSession: boolean;
  /** `-n/--name`: the session's display name. */
  name: string | undefined;
  /** `--tools` entries: names, `*` patterns, or only `+name`/`-name` changes. */
  tools: string[] | undefined;
  /** `--exclude-tools` entries: names or `*` patterns. */
  excludeTools: string[] | undefined;
  noTools: boolean;
  systemPrompt: string | undefined;
  appendSystemPrompt: string[];
  skills: string[];
  noSkills: boolean;
  promptTemplates: string[];
  noPromptTemplates: boolean;
  noContextFiles: boolean;
  extensions: string[];
  noExtensions: boolean;
  noMcp: boolean;
  plugins: string[];
  noPlugins: string[];
  distributions: string[];
  /** `-a/--approve`: the project's protected files apply this once, as if it were trusted. */
  approve: boolean;
  /** `-na/--no-approve`: the project is untrusted this once, whatever was saved. */
  noApprove: boolean;
  /** Set by the CLI, not a flag: the run may ask the user about project trust (interactive mode). */
  askTrust?: boolean;
  watch: boolean;
  json: boolean;
  version: boolean;
  help: boolean;
  /** Positional arguments: a command word, or the messages to send. */
  positionals: string[];
  /** `@file` arguments, without the `@`. */
  files: string[];
}

/** Bad command-line input: one line for the user; the CLI exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Parses argv as pi does: flags anywhere, `@file` arguments, the rest messages; `--` ends the flags. */
export function parseCliArgs(argv: string[]): CliArgs {
  const values = new Map<string, string[] | true>();
  const positionals: string[] = [];
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("@") && arg.length > 1) {
      files.push(arg.slice(1));
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const written = eq === -1 ? arg : arg.slice(0, eq);
    const spec = findFlag(written);
    if (spec === undefined) throw new UsageError(unknownFlagMessage(written));
    let value: string | undefined;
    if (eq !== -1) {
      if (spec.value === undefined) throw new UsageError(`${written} takes no value; remove "=${arg.slice(eq + 1)}"`);
      value = arg.slice(eq + 1);
    } else if (spec.value !== undefined && !spec.inlineValue) {
      const next = argv[i + 1];
      if (spec.optionalValue) {
        if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) value = argv[++i];
      } else {
        if (next === undefined) throw new UsageError(`${written} needs a value: ${written} ${spec.value}`);
        value = argv[++i];
      }
    }
    record(values, spec, value);
  }
  return typedArgs(values, positionals, files);
}

/** `--compat-events` and `--compat-events=0.73` ask for pi 0.73's shapes, the only older shape there is. */
function compatEventsOf(value: string[] | true | undefined): boolean {
  if (value === undefined || value === true) return value === true;
  const version = value[value.length - 1];
  if (version !== "0.73")
    throw new UsageError(`--compat-events takes 0.73 or no value (pi 0.73's event shapes), not "${version}"`);
  return true;
}

/** pi's session ids: letters, digits, `.`, `_` and `-`, starting and ending with a letter or digit. */
function sessionIdOf(value: string | undefined): string | undefined {
  if (value === undefined || /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(value)) return value;
  throw new UsageError(
    `--session-id "${value}" is not a session id (letters, digits, . _ -; a letter or digit first and last)`,
  );
}
/** The flag `written` (`--name` or a short spelling) names, if pi knows it. */
export function findFlag(written: string): FlagSpec | undefined {
  if (written.startsWith("--")) return FLAGS.find((f) => f.name === written.slice(2));
  return FLAGS.find((f) => f.short?.includes(written));
}

function record(values: Map<string, string[] | true>, spec: FlagSpec, value: string | undefined): void {
  if (spec.value === undefined) {
    values.set(spec.name, true);
    return;
  }
  // An optional-value flag given without its value counts as given.
  if (value === undefined) {
    if (!values.has(spec.name)) values.set(spec.name, true);
    return;
  }
  const previous = values.get(spec.name);
  values.set(spec.name, spec.repeat && Array.isArray(previous) ? [...previous, value] : [value]);
}

function typedArgs(values: Map<string, string[] | true>, positionals: string[], files: string[]): CliArgs {
  const flag = (name: string): boolean => values.has(name);
  const one = (name: string): string | undefined => {
    const v = values.get(name);
    return Array.isArray(v) ? v[v.length - 1] : undefined;
  };
  const all = (name: string): string[] => {
    const v = values.get(name);
    return Array.isArray(v) ? v : [];
  };
  const mode = one("mode");
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode))
    throw new UsageError(`--mode must be one of ${MODES.join(", ")}, not "${mode}"`);
  const thinking = one("thinking");
  if (thinking !== undefined && !(CLI_THINKING_LEVELS as readonly string[]).includes(thinking)) {
    throw new UsageError(`--thinking must be one of ${CLI_THINKING_LEVELS.join(", ")}, not "${thinking}"`);
  }
  const tools = toolList("--tools", one("tools"));
  const toolProblem = tools === undefined ? undefined : toolSelectionProblem(tools);
  if (toolProblem !== undefined) throw new UsageError(toolProblem);
  const listModels = values.get("list-models");
  return {
    print: flag("print"),
    mode: mode as CliArgs["mode"],
    compatEvents: compatEventsOf(values.get("compat-events")),
    model: one("model"),
    provider: one("provider"),
    apiKey: one("api-key"),
    thinking: (thinking === "max" ? "xhigh" : thinking) as CliArgs["thinking"],
    listModels:
      listModels === undefined ? undefined : listModels === true ? true : listModels[listModels.length - 1] || true,
    continue: flag("continue"),
    resume: flag("resume"),
    session: one("session"),
    fork: one("fork"),
    sessionId: sessionIdOf(one("session-id")),
    sessionDir: one("session-dir"),
    noSession: flag("no-session"),
    name: one("name"),
    tools,
    excludeTools: toolList("--exclude-tools", one("exclude-tools")),
    noTools: flag("no-tools"),
    systemPrompt: one("system-prompt"),
    appendSystemPrompt: all("append-system-prompt"),
    skills: all("skill"),
    noSkills: flag("no-skills"),
    promptTemplates: all("prompt-template"),
    noPromptTemplates: flag("no-prompt-templates"),
    noContextFiles: flag("no-context-files"),
    extensions: all("extension"),
    noExtensions: flag("no-extensions"),
    noMcp: flag("no-mcp"),
    plugins: all("plugin"),
    noPlugins: all("no-plugin"),
    distributions: all("distribution"),
    approve: flag("approve"),
    noApprove: flag("no-approve"),
    watch: flag("watch"),
    json: flag("json"),
    version: flag("version"),
    help: flag("help"),
    positionals,
    files,
  };
}

/** A given tool list; an empty one is refused (`--no-tools` says "none"). */
function toolList(flag: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const entries = splitToolList(value);
  if (entries.length === 0)
    throw new UsageError(`${flag} is empty; give tool names${flag === "--tools" ? " or use --no-tools" : ""}`);
  return entries;
}

/** "unknown flag --modle; did you mean --model?" — the closest known spelling, when one is close. */
function unknownFlagMessage(written: string): string {
  const best = closestSpelling(
    written,
    FLAGS.flatMap((f) => [`--${f.name}`, ...(f.short ?? [])]),
  );
  return `unknown flag ${written}; ${best !== undefined ? `did you mean ${best}? ` : ""}run "pi --help" for the options`;
}

/** The help text: usage, commands, every flag of the table by group, distribution layers, environment. */
export function helpText(): string {
  const rows = FLAGS.map((f) => ({
    group: f.group,
    left: [...(f.short ?? []), `--${f.name}`].join(", ") + (f.value ? ` ${f.value}` : ""),
    help: f.help,
  }));
  const width = Math.max(...rows.map((r) => r.left.length)) + 2;
  const groups = [...new Set(rows.map((r) => r.group))];
  const flagText = groups
    .map(
      (group) =>
        `${group}:\n${rows
          .filter((r) => r.group === group)
          .map((r) => `  ${r.left.padEnd(width)}${r.help}`)
          .join("\n")}`,
    )
    .join("\n\n");
  return `pi — a terminal coding agent built as a plugin host

Usage:
  pi [options] [@files...] [messages...]
  pi plugins [--json]          List the distribution's plugins: id, version, status, generation,
                               provided contracts and source
  pi trust [dir] [--no]        Trust a project folder (default: the current one) so its .pi
                               settings, extensions, skills, prompts, plugins and packages
                               load; --no saves "do not trust" (-a/--approve: one run only)

Mode: --mode rpc or acp > --mode json > print (-p, --mode text, or stdin/stdout not a terminal) > interactive.
Piped stdin and @file arguments join the first message (text files as <file name="...">...</file>,
images attached).

${flagText}

Distribution layers, later wins, merged by plugin id:
  the package's plugins.json < ~/.pi/agent/plugins.json < trusted .pi/plugins.json
  < --distribution < --plugin / --no-plugin

Environment:
  PI_CODING_AGENT_DIR           Agent folder (default ~/.pi/agent): plugins.json, models.json,
                                auth.json, settings.json, sessions/
  PI_CODING_AGENT_SESSION_DIR   Session folder; --session-dir wins
  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...   API keys

Examples:
  pi -p "List all .ts files in src/"
  cat README.md | pi -p "Summarize this text"
  pi -p @screenshot.png "What's in this image?"
  pi --mode json --model openai/gpt-4.1 "Review the diff" | jq -c 'select(.type == "message_end")'
  pi --tools read,grep,find,ls -p "Review the code"
`;
}
