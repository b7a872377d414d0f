/**
 * Every setting pi 1.6.0 documents (docs/settings.md), and pi-host's own, as the `/settings` screen
 * lists them: the dotted key, how a value is edited (a boolean or a choice cycles, anything else is
 * typed), pi's default and its one-line description. The screen reads values from the merged settings
 * and writes one key at a time through the settings contract, which replaces the file atomically.
 */

/** How a setting's value is entered. */
export type SettingKind = "boolean" | "choice" | "number" | "string" | "json";

/** One row of the settings screen. */
export interface SettingInfo {
  key: string;
  kind: SettingKind;
  /** For "choice": the values Enter cycles through, in order. */
  values?: ReadonlyArray<string | number | boolean>;
  /** pi's default, as its docs write it. */
  default: string;
  description: string;
  /** pi reads it only from the agent folder's settings.json. */
  globalOnly?: boolean;
}

const bool = (key: string, def: boolean, description: string): SettingInfo => ({
  key,
  kind: "boolean",
  default: String(def),
  description,
});
const choice = (key: string, values: Array<string | number | boolean>, def: string, description: string) =>
  ({ key, kind: "choice", values, default: def, description }) satisfies SettingInfo;
const typed = (key: string, kind: "number" | "string" | "json", def: string, description: string) =>
  ({ key, kind, default: def, description }) satisfies SettingInfo;
const globalOnly = (info: SettingInfo): SettingInfo => ({ ...info, globalOnly: true });

const THINKING = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** The table, grouped as pi's docs group it. */
export const SETTINGS: readonly SettingInfo[] = [
  // Model and thinking
  typed("defaultProvider", "string", "automatic", "Startup AI provider"),
  typed("defaultModel", "string", "automatic", "Startup model ID"),
  choice("defaultThinkingLevel", THINKING, "medium", "Startup thinking level"),
  typed("modelThinkingLevels", "json", "none", "Per-model startup thinking levels keyed by provider/modelId"),
  typed("thinkingBudgets", "json", "built-in", "Token budgets for minimal, low, medium and high thinking"),
  typed("enabledModels", "json", "all available", "Model patterns for startup selection and Ctrl+P cycling"),
  bool("hideThinkingBlock", false, "Hide thinking blocks in the transcript"),
  bool("showCacheMissNotices", false, "Show notices for cache misses, cache warming and provider recovery"),
  globalOnly(choice("cacheWarming", ["off", "streaming", "idle"], "idle", "Keep provider prompt caches warm")),
  // Interaction
  choice("steeringMode", ["one-at-a-time", "all"], "one-at-a-time", "How queued steering messages are delivered"),
  choice("followUpMode", ["one-at-a-time", "all"], "one-at-a-time", "How queued follow-up messages are delivered"),
  typed("externalEditor", "string", "$VISUAL, $EDITOR", "Command the external-editor key opens"),
  choice("doubleEscapeAction", ["tree", "fork", "none"], "tree", "Action for double Escape with an empty editor"),
  choice(
    "treeFilterMode",
    ["default", "no-tools", "user-only", "labeled-only", "all"],
    "default",
    "Initial filter used by /tree",
  ),
  globalOnly(choice("defaultProjectTrust", ["ask", "always", "never"], "ask", "Fallback project-trust behavior")),
  // Tools
  typed(
    "defaultTools",
    "json",
    '["read","bash","edit","write"]',
    "Tools enabled at startup (+name adds, -name removes)",
  ),
  choice("codemode.mode", ["on", "only"], "on", "How the codemode tool presents tools"),
  typed("codemode.inlineBudget", "number", "3000", "Tokens the codemode tool's description may spend on tools"),
  // Sessions and context
  typed("sessionDir", "string", "agent session folder", "Session storage directory"),
  choice("sessionShareDestination", ["auto", "gist", "radius"], "auto", "Where /share uploads the session"),
  bool("compaction.enabled", true, "Enable automatic compaction"),
  typed("compaction.reserveTokens", "number", "16384", "Free context tokens below which compaction starts"),
  typed("compaction.keepRecentTokens", "number", "20000", "Recent tokens kept without summarizing"),
  typed("compaction.modelOverrides", "json", "none", "Per-model compaction token settings"),
  typed("branchSummary.reserveTokens", "number", "16384", "Tokens reserved when summarizing branch history"),
  bool("branchSummary.skipPrompt", false, "Skip the branch-summary prompt and default to no summary"),
  // Terminal and display
  typed("theme", "string", "system", "Built-in or custom theme name"),
  choice("quietStartup", [false, true, "header"], "false", "Hide the startup header and resource listing"),
  choice("tuiMode", ["regular", "fullscreen"], "fullscreen", "Interactive terminal UI mode"),
  choice("fullscreenExitOutput", ["transcript", "resume-hint"], "transcript", "Output printed when fullscreen exits"),
  choice("fullscreenScrollbar", ["auto", "always", "hidden"], "auto", "Fullscreen transcript scrollbar"),
  bool("fullscreenCopyOnSelect", true, "Copy selected text automatically in fullscreen mode"),
  typed("fullscreenWheelScrollLines", "json", '"auto"', 'Lines per mouse-wheel event ("auto" or 1-100)'),
  choice("editorPaddingX", [0, 1, 2, 3], "0", "Horizontal editor padding (0-3 cells)"),
  choice("outputPad", [0, 1], "1", "Horizontal transcript padding"),
  typed("autocompleteMaxVisible", "number", "5", "Visible autocomplete entries (3-20)"),
  bool("showHardwareCursor", false, "Use the terminal cursor instead of pi's drawn cursor"),
  bool("terminal.showImages", true, "Display inline images when supported"),
  typed("terminal.imageWidthCells", "number", "60", "Preferred inline image width in cells"),
  bool("terminal.clearOnShrink", false, "Clear empty rows when rendered content shrinks"),
  bool("terminal.showTerminalProgress", false, "Show OSC 9;4 progress in the terminal tab"),
  choice("terminal.hyperlinks", ["auto", true, false], "auto", "Override OSC 8 hyperlink detection"),
  choice("terminal.images", ["auto", "kitty", "iterm2", false], "auto", "Override inline-image protocol detection"),
  choice("terminal.trueColor", ["auto", true, false], "auto", "Override true-color detection"),
  bool("images.autoResize", true, "Resize images to at most 2000x2000 before sending them"),
  bool("images.blockImages", false, "Prevent images from being sent to models"),
  typed("markdown.codeBlockIndent", "string", '"  "', "Prefix that indents rendered code blocks"),
  choice("markdown.mermaid", ["off", "final", "streaming"], "streaming", "Mermaid rendering mode"),
  // Network and retries
  choice("transport", ["auto", "sse", "websocket", "websocket-cached"], "auto", "Preferred provider transport"),
  globalOnly(typed("httpProxy", "string", "none", "Proxy URL applied as HTTP_PROXY and HTTPS_PROXY")),
  typed("httpIdleTimeoutMs", "json", "300000", 'HTTP idle timeout in ms (0 or "disabled" to disable)'),
  typed("websocketConnectTimeoutMs", "json", "15000", 'WebSocket connect timeout in ms (0 or "disabled")'),
  bool("retry.enabled", true, "Retry transient failures automatically"),
  typed("retry.maxRetries", "number", "3", "Maximum agent-level retry attempts"),
  typed("retry.baseDelayMs", "number", "2000", "Initial exponential-backoff delay in ms"),
  typed("retry.maxAgentDelayMs", "number", "60000", "Maximum agent-level retry delay in ms"),
  typed("retry.provider.timeoutMs", "number", "httpIdleTimeoutMs", "Provider request timeout in ms"),
  typed("retry.provider.maxRetries", "number", "0", "Provider-level retry attempts"),
  typed("retry.provider.maxRetryDelayMs", "number", "60000", "Maximum server-requested delay in ms (0: no limit)"),
  // Shell
  typed("shellPath", "string", "platform default", "Custom shell executable path"),
  typed("shellCommandPrefix", "string", "none", "Prefix prepended to every shell command"),
  typed("npmCommand", "json", '["npm"]', "Command and arguments for npm lookups and installs"),
  globalOnly(typed("selfUpdateCommand", "json", "none", "Command `pi update` runs to update pi itself")),
  // Resources
  typed("packages", "json", "[]", "npm, git or local pi package sources"),
  typed("extensions", "json", "[]", "Extension files or folders"),
  typed("skills", "json", "[]", "Skill files or folders"),
  typed("prompts", "json", "[]", "Prompt-template files or folders"),
  typed("themes", "json", "[]", "Theme files or folders"),
  bool("enableSkillCommands", true, "Register skills as /skill:name commands"),
  // Updates, telemetry and warnings
  bool("collapseChangelog", false, "Show a condensed changelog after an update"),
  bool("enableInstallTelemetry", true, "Anonymous install/update reporting"),
  bool("enableAnalytics", false, "Opt in to analytics data sharing"),
  bool("warnings.anthropicExtraUsage", true, "Warn when Anthropic subscription auth may use paid extra usage"),
  // pi-host's own
  typed("mcpServers", "json", "{}", "pi-host: MCP servers the mcp plugin connects to"),
];

/** The value at a dotted key of the merged settings. */
export function settingValue(settings: Record<string, unknown>, key: string): unknown {
  let value: unknown = settings;
  for (const part of key.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** How the screen shows a value: strings bare, the rest as JSON, unset as pi's default. */
export function showValue(info: SettingInfo, value: unknown): string {
  if (value === undefined) return `${info.default} (default)`;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The value after `current` for a boolean or choice setting (unset counts as the default). */
export function nextValue(info: SettingInfo, current: unknown): unknown {
  const values = info.kind === "boolean" ? [false, true] : (info.values ?? []);
  const shown = current === undefined ? info.default : String(current);
  const index = values.findIndex((v) => String(v) === shown);
  return values[(index + 1) % values.length];
}

/**
 * A typed value as the setting stores it: a number for "number" settings, text for "string" ones,
 * JSON for the rest; empty text removes the key (pi's default applies). Bad input throws one line.
 */
export function parseTyped(info: SettingInfo, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  if (info.kind === "string") return trimmed;
  if (info.kind === "number") {
    const n = Number(trimmed);
    if (!Number.isFinite(n)) throw new Error(`${info.key} takes a number; got "${trimmed}"`);
    return n;
  }
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    throw new Error(`${info.key} takes JSON (e.g. ${info.default}); got "${trimmed}"`);
  }
}
