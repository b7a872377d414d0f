/**
 * Colours, in pi's theme format: a JSON object with `name`, optional `vars` and `colors` whose values are
 * "#rrggbb", an xterm-256 index, "" (the terminal's default) or the name of a var. Built in: `dark` and
 * `light`; others load from `<agent dir>/themes/<name>.json`, so pi users' theme files work unchanged.
 * A token a theme leaves out falls back to the dark theme's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** pi's theme JSON. */
export interface ThemeJson {
  name: string;
  vars?: Record<string, string | number>;
  colors: Record<string, string | number>;
}

/** The tokens this view paints with (a subset of pi's 51; the rest are accepted and ignored). */
export type ColorToken =
  | "accent"
  | "border"
  | "borderMuted"
  | "success"
  | "error"
  | "warning"
  | "muted"
  | "dim"
  | "text"
  | "thinkingText"
  | "selectedBg"
  | "userMessageBg"
  | "userMessageText"
  | "toolPendingBg"
  | "toolSuccessBg"
  | "toolErrorBg"
  | "toolTitle"
  | "toolOutput"
  | "mdHeading"
  | "mdLink"
  | "mdLinkUrl"
  | "mdCode"
  | "mdCodeBlock"
  | "mdCodeBlockBorder"
  | "mdQuote"
  | "mdQuoteBorder"
  | "mdHr"
  | "mdListBullet"
  | "toolDiffAdded"
  | "toolDiffRemoved"
  | "toolDiffContext"
  | "syntaxComment"
  | "syntaxKeyword"
  | "syntaxFunction"
  | "syntaxString"
  | "syntaxNumber"
  | "syntaxType"
  | "syntaxPunctuation";

/** The default theme, and the fallback for tokens another theme leaves out. */
export const DARK_THEME: ThemeJson = {
  name: "dark",
  vars: {
    cyan: "#00d7ff",
    blue: "#5f87ff",
    green: "#b5bd68",
    red: "#cc6666",
    yellow: "#ffff00",
    gray: "#808080",
    dimGray: "#666666",
    darkGray: "#505050",
  },
  colors: {
    accent: "#8abeb7",
    border: "blue",
    borderMuted: "darkGray",
    success: "green",
    error: "red",
    warning: "yellow",
    muted: "gray",
    dim: "dimGray",
    text: "",
    thinkingText: "gray",
    selectedBg: "#3a3a4a",
    userMessageBg: "#343541",
    userMessageText: "",
    toolPendingBg: "#282832",
    toolSuccessBg: "#283228",
    toolErrorBg: "#3c2828",
    toolTitle: "",
    toolOutput: "gray",
    mdHeading: "#f0c674",
    mdLink: "#81a2be",
    mdLinkUrl: "dimGray",
    mdCode: "#8abeb7",
    mdCodeBlock: "green",
    mdCodeBlockBorder: "gray",
    mdQuote: "gray",
    mdQuoteBorder: "gray",
    mdHr: "gray",
    mdListBullet: "#8abeb7",
    toolDiffAdded: "green",
    toolDiffRemoved: "red",
    toolDiffContext: "gray",
    syntaxComment: "#6a9955",
    syntaxKeyword: "#569cd6",
    syntaxFunction: "#dcdcaa",
    syntaxString: "#ce9178",
    syntaxNumber: "#b5cea8",
    syntaxType: "#4ec9b0",
    syntaxPunctuation: "#d4d4d4",
  },
};

/** For light terminal backgrounds. */
export const LIGHT_THEME: ThemeJson = {
  name: "light",
  vars: {
    teal: "#5f8787",
    blue: "#5f87af",
    green: "#5f8700",
    red: "#af0000",
    yellow: "#9a7326",
    gray: "#6c6c6c",
    lightGray: "#b0b0b0",
  },
  colors: {
    accent: "teal",
    border: "blue",
    borderMuted: "lightGray",
    success: "green",
    error: "red",
    warning: "yellow",
    muted: "gray",
    dim: "lightGray",
    text: "",
    thinkingText: "gray",
    selectedBg: "#d0d0e0",
    userMessageBg: "#e8e8e8",
    userMessageText: "",
    toolPendingBg: "#e8e8f0",
    toolSuccessBg: "#e8f0e8",
    toolErrorBg: "#f0e8e8",
    toolTitle: "",
    toolOutput: "gray",
    mdHeading: "yellow",
    mdLink: "blue",
    mdLinkUrl: "gray",
    mdCode: "teal",
    mdCodeBlock: "green",
    mdCodeBlockBorder: "gray",
    mdQuote: "gray",
    mdQuoteBorder: "gray",
    mdHr: "gray",
    mdListBullet: "green",
    toolDiffAdded: "green",
    toolDiffRemoved: "red",
    toolDiffContext: "gray",
    syntaxComment: "#008000",
    syntaxKeyword: "#0000ff",
    syntaxFunction: "#795e26",
    syntaxString: "#a31515",
    syntaxNumber: "#098658",
    syntaxType: "#267f99",
    syntaxPunctuation: "#000000",
  },
};

/** A theme ready to paint: SGR codes per token. */
export class Theme {
  private readonly fgCodes = new Map<string, string>();
  private readonly bgCodes = new Map<string, string>();

  constructor(readonly json: ThemeJson) {
    for (const [token, fallback] of Object.entries(DARK_THEME.colors)) {
      const own = token in json.colors;
      const value = own ? json.colors[token]! : fallback;
      const vars = (own ? json.vars : DARK_THEME.vars) ?? {};
      const resolved = typeof value === "string" && value in vars ? vars[value]! : value;
      this.fgCodes.set(token, colorCode(resolved, 38));
      this.bgCodes.set(token, colorCode(resolved, 48));
    }
  }

  get name(): string {
    return this.json.name;
  }

  /** `text` in the token's foreground colour. */
  fg(token: ColorToken, text: string): string {
    const code = this.fgCodes.get(token) ?? "";
    return code === "" || text === "" ? text : `${code}${text}\x1b[39m`;
  }

  /** `text` on the token's background colour. */
  bg(token: ColorToken, text: string): string {
    const code = this.bgCodes.get(token) ?? "";
    return code === "" || text === "" ? text : `${code}${text}\x1b[49m`;
  }

  bold(text: string): string {
    return `\x1b[1m${text}\x1b[22m`;
  }

  italic(text: string): string {
    return `\x1b[3m${text}\x1b[23m`;
  }

  underline(text: string): string {
    return `\x1b[4m${text}\x1b[24m`;
  }
}

/** An SGR colour code for "#rrggbb" or a 256-colour index; "" for the default colour. */
function colorCode(value: string | number, base: 38 | 48): string {
  if (typeof value === "number") return `\x1b[${base};5;${value}m`;
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (hex === null) return "";
  return `\x1b[${base};2;${Number.parseInt(hex[1]!, 16)};${Number.parseInt(hex[2]!, 16)};${Number.parseInt(hex[3]!, 16)}m`;
}

/** A theme by name: built-in, or `<agentDir>/themes/<name>.json`. Throws one line when it cannot be used. */
export function loadTheme(name: string, agentDir: string): Theme {
  if (name === "dark") return new Theme(DARK_THEME);
  if (name === "light") return new Theme(LIGHT_THEME);
  const file = join(agentDir, "themes", `${name}.json`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(
      `theme "${name}": cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const theme = json as Partial<ThemeJson> | null;
  if (theme === null || typeof theme !== "object" || typeof theme.colors !== "object" || theme.colors === null) {
    throw new Error(`theme "${name}": ${file} needs a "colors" object`);
  }
  return new Theme({ name, vars: theme.vars ?? {}, colors: theme.colors });
}
