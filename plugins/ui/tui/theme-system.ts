/**
 * pi 1.6.0's `system` theme as it is drawn when the terminal's colours are not known: every token takes
 * the ANSI palette colour (0-15) of its hue family, or the terminal's default colour, so it fits whatever
 * light or dark palette the terminal has. Secondary neutral text is faint and panels get no background,
 * as in pi. Whether the terminal is light or dark (for `light/dark` theme pairs) comes from COLORFGBG,
 * else dark, as pi decides without a reported background.
 */
import type { ParsedTheme, TermColor } from "./theme-parse.js";
import { SYSTEM_THEME } from "./theme-parse.js";
import { TOKEN_NAMES, type ThemeToken } from "./theme-tokens.js";

/** pi's hue families and the ANSI palette slot each takes. */
const FAMILY_SLOTS = {
  neutral: 8,
  blue: 4,
  green: 2,
  red: 1,
  yellow: 3,
  orange: 3,
  violet: 5,
  calamine: 6,
  thinkingSlate: 4,
  thinkingBlue: 4,
  thinkingPeriwinkle: 6,
  thinkingViolet: 5,
  thinkingMagenta: 13,
  thinkingRed: 1,
} as const;

type Family = keyof typeof FAMILY_SLOTS;

/** Each token's family, as pi assigns them. */
const TOKEN_FAMILIES: Record<ThemeToken, Family> = {
  accent: "violet",
  border: "blue",
  borderAccent: "violet",
  borderMuted: "neutral",
  success: "green",
  error: "red",
  warning: "yellow",
  muted: "neutral",
  dim: "neutral",
  text: "neutral",
  thinkingText: "neutral",
  scrollbarTrack: "neutral",
  scrollbarThumb: "neutral",
  selectedBg: "blue",
  searchMatchBg: "orange",
  searchMatchText: "neutral",
  userMessageBg: "blue",
  userMessageText: "neutral",
  customMessageBg: "violet",
  customMessageText: "neutral",
  customMessageLabel: "violet",
  toolPendingBg: "neutral",
  toolSuccessBg: "green",
  toolErrorBg: "red",
  toolTitle: "neutral",
  toolOutput: "neutral",
  mdHeading: "yellow",
  mdLink: "blue",
  mdLinkUrl: "neutral",
  mdCode: "violet",
  mdCodeBlock: "green",
  mdCodeBlockBorder: "neutral",
  mdQuote: "neutral",
  mdQuoteBorder: "neutral",
  mdHr: "neutral",
  mdListBullet: "violet",
  toolDiffAdded: "green",
  toolDiffRemoved: "red",
  toolDiffContext: "neutral",
  syntaxComment: "neutral",
  syntaxKeyword: "blue",
  syntaxFunction: "yellow",
  syntaxVariable: "calamine",
  syntaxString: "orange",
  syntaxNumber: "green",
  syntaxType: "violet",
  syntaxOperator: "neutral",
  syntaxPunctuation: "neutral",
  thinkingOff: "neutral",
  thinkingMinimal: "thinkingSlate",
  thinkingLow: "thinkingBlue",
  thinkingMedium: "thinkingPeriwinkle",
  thinkingHigh: "thinkingViolet",
  thinkingXhigh: "thinkingMagenta",
  thinkingMax: "thinkingRed",
  bashMode: "green",
};

/** Tokens that would share a hue with a similar one take another slot. */
const TOKEN_SLOTS: Partial<Record<ThemeToken, number>> = { syntaxString: 2, syntaxNumber: 5, searchMatchBg: 3 };

/** Backgrounds of panels: none without the terminal's colours. */
const PANELS: readonly ThemeToken[] = [
  "userMessageBg",
  "toolPendingBg",
  "toolSuccessBg",
  "toolErrorBg",
  "selectedBg",
  "searchMatchBg",
  "customMessageBg",
];

/** Body text: the terminal's default foreground, not faint. */
const FOREGROUND_TOKENS: readonly ThemeToken[] = ["text", "userMessageText", "toolTitle"];

/** The system theme's colours and its faint tokens, for a terminal that reported no colours. */
export function systemTheme(env: NodeJS.ProcessEnv = process.env): { theme: ParsedTheme; dim: ThemeToken[] } {
  const colors = {} as Record<ThemeToken, TermColor>;
  const dim: ThemeToken[] = [];
  for (const token of TOKEN_NAMES) {
    const family = TOKEN_FAMILIES[token];
    if (PANELS.includes(token) || family === "neutral") {
      colors[token] = { kind: "default" };
      if (family === "neutral" && !PANELS.includes(token) && !FOREGROUND_TOKENS.includes(token)) dim.push(token);
      continue;
    }
    colors[token] = { kind: "index", index: TOKEN_SLOTS[token] ?? FAMILY_SLOTS[family] };
  }
  return { theme: { name: SYSTEM_THEME, appearance: terminalAppearance(env), colors }, dim };
}

/**
 * Dark or light from COLORFGBG (`fg;bg` or rxvt's `fg;xpm;bg`), classified by index as pi (and Vim) do:
 * 0-6 and 8 are dark backgrounds, 7 and 9-15 light; undefined without a usable index.
 */
export function colorFgBgAppearance(env: NodeJS.ProcessEnv = process.env): "dark" | "light" | undefined {
  const bg = env.COLORFGBG?.split(";").at(-1)?.trim();
  if (bg === undefined || !/^\d{1,2}$/.test(bg)) return undefined;
  const index = Number(bg);
  if (index > 15) return undefined;
  return index <= 6 || index === 8 ? "dark" : "light";
}

/** Whether the terminal is dark or light: COLORFGBG, else dark. */
export function terminalAppearance(env: NodeJS.ProcessEnv = process.env): "dark" | "light" {
  return colorFgBgAppearance(env) ?? "dark";
}
