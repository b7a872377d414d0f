/**
 * pi 1.6.0's theme tokens, in its order: every colour a theme file names under "colors", whether it paints
 * text or a background, and the token an optional one falls back to. A theme file must give every token
 * without a fallback and no other (pi's themes are strict).
 */

/** Whether a token colours text (SGR 38) or a background (SGR 48). */
export type TokenSlot = "fg" | "bg";

/** Every token: its slot and, for the five optional ones, the token it falls back to. */
export const THEME_TOKENS = {
  accent: { slot: "fg" },
  border: { slot: "fg" },
  borderAccent: { slot: "fg" },
  borderMuted: { slot: "fg" },
  success: { slot: "fg" },
  error: { slot: "fg" },
  warning: { slot: "fg" },
  muted: { slot: "fg" },
  dim: { slot: "fg" },
  text: { slot: "fg" },
  thinkingText: { slot: "fg" },
  scrollbarTrack: { slot: "fg", fallback: "muted" },
  scrollbarThumb: { slot: "fg", fallback: "text" },
  selectedBg: { slot: "bg" },
  searchMatchBg: { slot: "bg", fallback: "selectedBg" },
  searchMatchText: { slot: "fg", fallback: "text" },
  userMessageBg: { slot: "bg" },
  userMessageText: { slot: "fg" },
  customMessageBg: { slot: "bg" },
  customMessageText: { slot: "fg" },
  customMessageLabel: { slot: "fg" },
  toolPendingBg: { slot: "bg" },
  toolSuccessBg: { slot: "bg" },
  toolErrorBg: { slot: "bg" },
  toolTitle: { slot: "fg" },
  toolOutput: { slot: "fg" },
  mdHeading: { slot: "fg" },
  mdLink: { slot: "fg" },
  mdLinkUrl: { slot: "fg" },
  mdCode: { slot: "fg" },
  mdCodeBlock: { slot: "fg" },
  mdCodeBlockBorder: { slot: "fg" },
  mdQuote: { slot: "fg" },
  mdQuoteBorder: { slot: "fg" },
  mdHr: { slot: "fg" },
  mdListBullet: { slot: "fg" },
  toolDiffAdded: { slot: "fg" },
  toolDiffRemoved: { slot: "fg" },
  toolDiffContext: { slot: "fg" },
  syntaxComment: { slot: "fg" },
  syntaxKeyword: { slot: "fg" },
  syntaxFunction: { slot: "fg" },
  syntaxVariable: { slot: "fg" },
  syntaxString: { slot: "fg" },
  syntaxNumber: { slot: "fg" },
  syntaxType: { slot: "fg" },
  syntaxOperator: { slot: "fg" },
  syntaxPunctuation: { slot: "fg" },
  thinkingOff: { slot: "fg" },
  thinkingMinimal: { slot: "fg" },
  thinkingLow: { slot: "fg" },
  thinkingMedium: { slot: "fg" },
  thinkingHigh: { slot: "fg" },
  thinkingXhigh: { slot: "fg" },
  thinkingMax: { slot: "fg", fallback: "thinkingXhigh" },
  bashMode: { slot: "fg" },
} as const satisfies Record<string, { slot: TokenSlot; fallback?: string }>;

/** A token name. */
export type ThemeToken = keyof typeof THEME_TOKENS;

/** The token names, in pi's order. */
export const TOKEN_NAMES = Object.keys(THEME_TOKENS) as ThemeToken[];

/** The fallback of an optional token, or undefined for a required one. */
export function tokenFallback(token: ThemeToken): ThemeToken | undefined {
  const entry = THEME_TOKENS[token] as { slot: TokenSlot; fallback?: ThemeToken };
  return entry.fallback;
}
