/**
 * pi 1.6.0's `system` theme. When the terminal reported its background (OSC 11 at start-up, asked by the
 * interactive mode), it is fitted to it (`theme-system-fit.ts`); dark or light is decided as pi decides
 * (by the reported foreground's direction when readable, else by contrast).
 * Drawn when the terminal's colours are not known: every token takes
 * the ANSI palette colour (0-15) of its hue family, or the terminal's default colour, so it fits whatever
 * light or dark palette the terminal has. Secondary neutral text is faint and panels get no background,
 * as in pi. Whether the terminal is light or dark (for `light/dark` theme pairs) comes from COLORFGBG,
 * else dark, as pi decides without a reported background.
 */
import type { TuiRgb, TuiTerminalColors } from "pi-host";
import type { ParsedTheme, TermColor } from "./theme-parse.js";
import { SYSTEM_THEME } from "./theme-parse.js";
import { TOKEN_NAMES, type ThemeToken } from "./theme-tokens.js";

/** pi's hue families and the ANSI palette slot each takes. */
export const FAMILY_SLOTS = {
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

/** One of pi's hue families. */
export type Family = keyof typeof FAMILY_SLOTS;

/** Each token's family, as pi assigns them. */
export const TOKEN_FAMILIES: Record<ThemeToken, Family> = {
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
export const TOKEN_SLOTS: Partial<Record<ThemeToken, number>> = { syntaxString: 2, syntaxNumber: 5, searchMatchBg: 3 };

/** Backgrounds of panels: none without the terminal's colours. */
export const PANELS: readonly ThemeToken[] = [
  "userMessageBg",
  "toolPendingBg",
  "toolSuccessBg",
  "toolErrorBg",
  "selectedBg",
  "searchMatchBg",
  "customMessageBg",
];

/** Body text: the terminal's default foreground, not faint. */
export const FOREGROUND_TOKENS: readonly ThemeToken[] = ["text", "userMessageText", "toolTitle"];

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

/** Whether the terminal is dark or light: its reported background, else COLORFGBG, else dark. */
export function terminalAppearance(env: NodeJS.ProcessEnv = process.env): "dark" | "light" {
  return reportedAppearance() ?? reported.scheme ?? colorFgBgAppearance(env) ?? "dark";
}

/** The colours the terminal reported this run, and a count of changes (themes cache by it). */
let reported: TuiTerminalColors = {};
let reportedRevision = 0;

/** Records the terminal's reported colours (the view passes what the interactive mode asked for). */
export function reportTerminalColors(colors: TuiTerminalColors | undefined): void {
  const next = colors ?? {};
  if (JSON.stringify(next) === JSON.stringify(reported)) return;
  reported = { ...next };
  reportedRevision++;
}

/** New colours after a light/dark switch, over the earlier ones (a colour not answered again keeps its value). */
export function takeTerminalColors(s: { terminalColors?: TuiTerminalColors }, colors: TuiTerminalColors): void {
  s.terminalColors = { ...s.terminalColors, ...colors };
  reportTerminalColors(s.terminalColors);
}

/** The colours the terminal reported this run (the fitted `system` theme is built from them). */
export function reportedColors(): TuiTerminalColors {
  return reported;
}

/** Changes whenever the reported colours do. */
export function reportedColorsRevision(): number {
  return reportedRevision;
}

/** Dark or light from the reported background; undefined when the terminal reported none. */
export function reportedAppearance(): "dark" | "light" | undefined {
  return reported.background === undefined ? undefined : appearanceOf(reported.background, reported.foreground);
}

/** pi's minimum WCAG contrast for text. */
const TEXT_MINIMUM_CONTRAST = 4.5;

/**
 * Whether a background is dark or light, as pi decides: the direction of the terminal's own foreground
 * when text can be readable that way, else dark when white text has more contrast on it than black.
 */
export function appearanceOf(background: TuiRgb, foreground?: TuiRgb): "dark" | "light" {
  const white = contrast({ r: 255, g: 255, b: 255 }, background);
  const black = contrast({ r: 0, g: 0, b: 0 }, background);
  if (foreground !== undefined) {
    const fl = oklabLightness(foreground);
    const bl = oklabLightness(background);
    if (Math.abs(fl - bl) > 0.05) {
      const appearance = fl > bl ? "dark" : "light";
      if ((appearance === "dark" ? white : black) >= TEXT_MINIMUM_CONTRAST) return appearance;
    }
  }
  return white >= black ? "dark" : "light";
}

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance. */
function luminance({ r, g, b }: TuiRgb): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio of two colours (1-21). */
export function contrast(a: TuiRgb, b: TuiRgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** OKLab lightness (0-1). */
export function oklabLightness({ r, g, b }: TuiRgb): number {
  const [lr, lg, lb] = [linear(r), linear(g), linear(b)];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
}
