/**
 * The colours the view paints with, from the loaded theme. Themes are pi 1.6.0's theme files
 * (theme-parse.ts): built in are `system` (the default, made from the terminal's own colours), `dark`
 * and `light`; others come from the themes folders, the `themes` setting, packages and `--theme`
 * (themes.ts), so pi users' theme files work unchanged.
 */
import { nearest256 } from "./color-depth.js";
import { DARK_THEME, LIGHT_THEME } from "./theme-builtin.js";
import { parseTheme, type ParsedTheme, type TermColor, type ThemeJson } from "./theme-parse.js";
import { THEME_TOKENS, TOKEN_NAMES, type ThemeToken } from "./theme-tokens.js";
import { currentThemes } from "./themes.js";

export { DARK_THEME, LIGHT_THEME } from "./theme-builtin.js";
export type { ThemeJson } from "./theme-parse.js";

/** A colour token of pi's theme format (every one of its 56). */
export type ColorToken = ThemeToken;

/** The theme used when none is chosen, and when the chosen one cannot be loaded (as in pi). */
export const DEFAULT_THEME = "system";

/** How a parsed theme is painted: faint tokens (the system theme's secondary text) and where it came from. */
export interface ThemeOptions {
  /** Foreground tokens drawn faint (SGR 2) on top of their colour. */
  dim?: readonly ThemeToken[];
  /** The file the theme was read from, for hot reload and /theme. */
  file?: string;
  /** Changes when the theme file is reloaded, so cached rows are painted again. */
  revision?: number;
  /** Whether the terminal draws 24-bit colour (`color-depth.ts`); false draws the nearest 256-colour index. */
  trueColor?: boolean;
}

/** A theme ready to paint: SGR codes per token. */
export class Theme {
  private readonly fgCodes = new Map<string, string>();
  private readonly bgCodes = new Map<string, string>();
  private readonly dim: ReadonlySet<string>;
  readonly name: string;
  readonly appearance: "dark" | "light" | undefined;
  readonly file: string | undefined;
  /** The name and revision: what rendered rows are cached by. */
  readonly key: string;

  /** From a theme file's JSON (checked; throws a ThemeError) or an already parsed theme. */
  constructor(theme: ThemeJson | ParsedTheme, options: ThemeOptions = {}) {
    const parsed = isParsed(theme) ? theme : parseTheme(theme.name, theme);
    this.name = parsed.name;
    this.appearance = parsed.appearance;
    this.file = options.file;
    const trueColor = options.trueColor !== false;
    this.key = `${parsed.name}#${options.revision ?? 0}${trueColor ? "" : "#256"}`;
    this.dim = new Set(options.dim ?? []);
    for (const token of TOKEN_NAMES) {
      const color = parsed.colors[token];
      if (color === undefined) continue;
      const codes = THEME_TOKENS[token].slot === "bg" ? this.bgCodes : this.fgCodes;
      codes.set(token, sgr(color, THEME_TOKENS[token].slot === "bg" ? 48 : 38, trueColor));
    }
  }

  /** `text` in the token's foreground colour. */
  fg(token: ColorToken, text: string): string {
    if (text === "") return text;
    const code = this.fgCodes.get(token) ?? this.bgCodes.get(token)?.replace("[48", "[38") ?? "";
    const painted = code === "" ? text : `${code}${text}\x1b[39m`;
    return this.dim.has(token) ? `\x1b[2m${painted}\x1b[22m` : painted;
  }

  /** `text` on the token's background colour. */
  bg(token: ColorToken, text: string): string {
    const code = this.bgCodes.get(token) ?? this.fgCodes.get(token)?.replace("[38", "[48") ?? "";
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

function isParsed(theme: ThemeJson | ParsedTheme): theme is ParsedTheme {
  const first = Object.values(theme.colors)[0] as unknown;
  return typeof first === "object" && first !== null && "kind" in first;
}

/** The SGR code of a colour; "" for the terminal's default (nothing to set). */
function sgr(color: TermColor, base: 38 | 48, trueColor: boolean): string {
  if (color.kind === "default") return "";
  if (color.kind === "index") return `\x1b[${base};5;${color.index}m`;
  if (!trueColor) return `\x1b[${base};5;${nearest256(color)}m`;
  return `\x1b[${base};2;${color.r};${color.g};${color.b}m`;
}

/**
 * A theme by name: `system`, `dark`, `light`, or one the themes of this run include (themes.ts: the
 * themes folders, the `themes` setting, packages, `--theme`). Throws one line when it cannot be used.
 */
export function loadTheme(name: string, agentDir: string): Theme {
  return currentThemes(agentDir).load(name);
}

/** The built-in `dark` and `light` themes, parsed once. */
export const BUILTIN_THEMES: Record<"dark" | "light", ThemeJson> = { dark: DARK_THEME, light: LIGHT_THEME };
