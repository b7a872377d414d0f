/**
 * The table of every flag `pi` knows (pi's, plus ours), in help order: the parser reads argv with it and
 * the help text is made from it, so a flag cannot be parsed without being documented.
 */

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
export const CLI_THINKING_LEVELS = [...THINKING_LEVELS, "max"] as const;
export const MODES = ["text", "json", "rpc", "acp"] as const;
/** What `--tui-mode` accepts, as pi 1.6.0 names the interactive terminal modes. */
export const TUI_MODES = ["fullscreen", "regular"] as const;

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
    group: "Modes",
    name: "tui-mode",
    value: "<fullscreen|regular>",
    help: "Interactive terminal: fullscreen (default; alternate screen, scrollable transcript, mouse) or regular (normal scrollback)",
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
    name: "models",
    value: "<patterns>",
    help: "Models to start with and cycle with Ctrl+P: ids, fuzzy matches or globs, comma-separated, each with an optional :thinking",
  },
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
    name: "export",
    value: "<file> [output]",
    help: "Export a session file to HTML (or its branch to JSONL when output ends in .jsonl) and exit",
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
    group: "Tools",
    name: "remote",
    value: "<user@host[:port]:/path|docker:name[:/path]>",
    help: "Run the built-in tools on another machine over SSH (or in a container); sessions and keys stay here",
  },
  {
    group: "Tools",
    name: "no-builtin-tools",
    short: ["-nbt"],
    help: "Disable the built-in tools unless --tools names them; extension, MCP and plugin tools stay",
  },
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
    name: "theme",
    value: "<path>",
    repeat: true,
    help: "Load a theme file or folder of themes (repeatable; still loads with --no-themes)",
  },
  {
    group: "Prompt and resources",
    name: "use-theme",
    value: "<name[/name]>",
    help: "The interactive theme for this run (light/dark: by the terminal's background); settings stay as they are",
  },
  {
    group: "Prompt and resources",
    name: "no-themes",
    help: "Skip theme discovery (themes folders, the themes setting, packages); --theme still loads",
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
  {
    group: "Other",
    name: "verbose",
    help: "Show the full startup header (model scope, loaded resources), overriding the quietStartup setting",
  },
  {
    group: "Other",
    name: "offline",
    help: "No automatic network activity at startup or in pi update (same as PI_OFFLINE=1)",
  },
  { group: "Other", name: "version", short: ["-v"], help: "Print the version and exit" },
  { group: "Other", name: "help", short: ["-h"], help: "Print this help and exit" },
];
