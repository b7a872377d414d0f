/**
 * pi's settings defaults, in one table, so every consumer sees the value pi would use without repeating
 * it. Taken from pi 0.73's settings manager (its getters) and docs/settings.md. Keys pi leaves unset —
 * `defaultProvider`, `defaultModel`, `defaultThinkingLevel`, `theme`, `thinkingBudgets`, `shellPath`,
 * `shellCommandPrefix`, `npmCommand`, `enabledModels`, `sessionDir`, `retry.provider.timeoutMs`,
 * `retry.provider.maxRetries` — stay unset here too: their absence means something (e.g. "ask the SDK").
 *
 * Where pi's docs and code disagree the code wins: `transport` is "auto" when unset (the docs say
 * "sse"). Two defaults follow the environment exactly as pi's do: `showHardwareCursor`
 * (PI_HARDWARE_CURSOR=1) and `terminal.clearOnShrink` (PI_CLEAR_ON_SHRINK=1).
 */
/**
 * A fresh copy of pi's defaults (callers may mutate it). Typed loosely: pi's `retry.provider` is not
 * in the contract's Settings type.
 */
export function piSettingDefaults(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  return {
    steeringMode: "one-at-a-time",
    followUpMode: "one-at-a-time",
    transport: "auto",
    hideThinkingBlock: false,
    quietStartup: false,
    collapseChangelog: false,
    enableInstallTelemetry: true,
    doubleEscapeAction: "tree",
    treeFilterMode: "default",
    editorPaddingX: 0,
    autocompleteMaxVisible: 5,
    showHardwareCursor: env.PI_HARDWARE_CURSOR === "1",
    enableSkillCommands: true,
    compaction: { enabled: true, reserveTokens: 16_384, keepRecentTokens: 20_000 },
    branchSummary: { reserveTokens: 16_384, skipPrompt: false },
    retry: { enabled: true, maxRetries: 3, baseDelayMs: 2_000, provider: { maxRetryDelayMs: 60_000 } },
    terminal: {
      showImages: true,
      imageWidthCells: 60,
      clearOnShrink: env.PI_CLEAR_ON_SHRINK === "1",
      showTerminalProgress: false,
    },
    images: { autoResize: true, blockImages: false },
    markdown: { codeBlockIndent: "  " },
    warnings: { anthropicExtraUsage: true },
    packages: [],
    extensions: [],
    skills: [],
    prompts: [],
    themes: [],
  };
}
