/**
 * The `pi` command line parser: reads argv with the flag table (cli-flag-table.ts) into typed arguments.
 * It imports nothing but the table and two helpers, so `pi --version` and `pi --help` stay as fast as
 * Node starts.
 */
import { CLI_THINKING_LEVELS, FLAGS, type FlagSpec, MODES, type THINKING_LEVELS, TUI_MODES } from "./cli-flag-table.js";
import { splitToolList, toolSelectionProblem } from "./cli-tool-flags.js";
import { closestSpelling } from "./edit-distance.js";

export { THINKING_LEVELS } from "./cli-flag-table.js";
export { helpText } from "./cli-help.js";

/** What the command line asked for, typed. */
export interface CliArgs {
  print: boolean;
  mode: (typeof MODES)[number] | undefined;
  compatEvents: boolean;
  /** `--tui-mode`: the interactive terminal mode. */
  tuiMode: (typeof TUI_MODES)[number] | undefined;
  model: string | undefined;
  provider: string | undefined;
  apiKey: string | undefined;
  thinking: (typeof THINKING_LEVELS)[number] | undefined;
  /** `--models`: the comma-separated scope patterns. */
  models: string[] | undefined;
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
  /** `-nbt`: built-in tools off unless `--tools` names them. */
  noBuiltinTools: boolean;
  /** `--remote`: where the built-in tools act (checked before the run starts, cli-run-choices.ts). */
  remote: string | undefined;
  systemPrompt: string | undefined;
  appendSystemPrompt: string[];
  skills: string[];
  noSkills: boolean;
  promptTemplates: string[];
  noPromptTemplates: boolean;
  noContextFiles: boolean;
  /** `--theme`: theme files or folders, loaded even with `--no-themes`. */
  themes: string[];
  /** `--use-theme`: the theme (or `light/dark` pair) of this run. */
  useTheme: string | undefined;
  noThemes: boolean;
  /** `--verbose`: the full startup header whatever `quietStartup` says. */
  verbose: boolean;
  /** `--offline` (or PI_OFFLINE): no automatic network activity. */
  offline: boolean;
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
  const tuiMode = one("tui-mode");
  if (tuiMode !== undefined && !(TUI_MODES as readonly string[]).includes(tuiMode))
    throw new UsageError(`--tui-mode must be one of ${TUI_MODES.join(", ")}, not "${tuiMode}"`);
  const thinking = one("thinking");
  if (thinking !== undefined && !(CLI_THINKING_LEVELS as readonly string[]).includes(thinking)) {
    throw new UsageError(`--thinking must be one of ${CLI_THINKING_LEVELS.join(", ")}, not "${thinking}"`);
  }
  const tools = toolList("--tools", one("tools"));
  const toolProblem = tools === undefined ? undefined : toolSelectionProblem(tools);
  if (toolProblem !== undefined) throw new UsageError(toolProblem);
  const provider = one("provider");
  // pi 1.6 refuses a provider alone, with this sentence; here it is a usage error (exit 2). With
  // --list-models the provider filters the list instead (pi prints the sentence and lists anyway).
  if (provider !== undefined && one("model") === undefined && !values.has("list-models")) {
    throw new UsageError(`--provider requires --model (for example: --provider ${provider} --model <pattern>)`);
  }
  const listModels = values.get("list-models");
  return {
    print: flag("print"),
    mode: mode as CliArgs["mode"],
    compatEvents: compatEventsOf(values.get("compat-events")),
    tuiMode: tuiMode as CliArgs["tuiMode"],
    model: one("model"),
    provider,
    apiKey: one("api-key"),
    thinking: (thinking === "max" ? "xhigh" : thinking) as CliArgs["thinking"],
    models: modelPatterns(one("models")),
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
    noBuiltinTools: flag("no-builtin-tools"),
    remote: one("remote")?.trim(),
    systemPrompt: one("system-prompt"),
    appendSystemPrompt: all("append-system-prompt"),
    skills: all("skill"),
    noSkills: flag("no-skills"),
    promptTemplates: all("prompt-template"),
    noPromptTemplates: flag("no-prompt-templates"),
    noContextFiles: flag("no-context-files"),
    themes: all("theme"),
    useTheme: themeSelection(one("use-theme")),
    noThemes: flag("no-themes"),
    verbose: flag("verbose"),
    offline: flag("offline"),
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

/** `--use-theme dark` or `--use-theme light/dark`: a name, or two names around one slash. */
function themeSelection(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parts = value.split("/").map((p) => p.trim());
  if (parts.length > 2 || parts.some((p) => p === ""))
    throw new UsageError(`--use-theme takes a theme name or light/dark names such as light/dark, not "${value}"`);
  return parts.join("/");
}

/** `--models a,b:high,c*`: the patterns; an empty list is refused. */
function modelPatterns(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const patterns = value
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (patterns.length === 0) throw new UsageError("--models is empty; give model patterns such as sonnet,gpt-*:high");
  return patterns;
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
