/**
 * pi's `Theme` for extensions in the TUI: `fg`, `bg`, `style`, the text attributes and the ANSI getters,
 * painted with the view's active theme through `tui/app` at the moment they are called. So a component
 * that styles while it renders follows a theme switch, as under pi.
 */
import type { TuiApp } from "pi-host";

const ATTRIBUTES = {
  bold: ["\x1b[1m", "\x1b[22m"],
  italic: ["\x1b[3m", "\x1b[23m"],
  underline: ["\x1b[4m", "\x1b[24m"],
  inverse: ["\x1b[7m", "\x1b[27m"],
  strikethrough: ["\x1b[9m", "\x1b[29m"],
} as const;

/** pi's ThemeStyle: colours and attributes for `theme.style()`. */
export interface ThemeStyle {
  fg?: string;
  bg?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strikethrough?: boolean;
}

function attribute(name: keyof typeof ATTRIBUTES, text: string): string {
  const [on, off] = ATTRIBUTES[name];
  return `${on}${text}${off}`;
}

/**
 * The theme object extensions get in the TUI, over the view's active theme (`app()` read on every call),
 * or over the theme `fixed` names (pi's `ctx.ui.getTheme(name)`).
 */
export function createTuiTheme(app: () => TuiApp, fixed?: string) {
  const info = () => app().theme(fixed) ?? { name: fixed ?? "dark", appearance: "dark" as const };
  const theme = {
    get name(): string {
      return info().name;
    },
    get sourcePath(): string | undefined {
      return info().path;
    },
    get appearance(): "dark" | "light" {
      return info().appearance;
    },
    fg: (color: string, text: string) => app().paint(color, text, "fg", fixed),
    bg: (color: string, text: string) => app().paint(color, text, "bg", fixed),
    bold: (text: string) => attribute("bold", text),
    italic: (text: string) => attribute("italic", text),
    underline: (text: string) => attribute("underline", text),
    inverse: (text: string) => attribute("inverse", text),
    strikethrough: (text: string) => attribute("strikethrough", text),
    style(text: string, options: ThemeStyle = {}): string {
      let out = text;
      for (const name of Object.keys(ATTRIBUTES) as Array<keyof typeof ATTRIBUTES>)
        if (options[name] === true) out = attribute(name, out);
      if (options.fg !== undefined) out = theme.fg(options.fg, out);
      if (options.bg !== undefined) out = theme.bg(options.bg, out);
      return out;
    },
    getFgAnsi: (color: string) => app().ansi(color, "fg", fixed),
    getBgAnsi: (color: string) => app().ansi(color, "bg", fixed),
    getColorMode: () => "truecolor" as const,
    getThinkingBorderColor: () => (text: string) => theme.fg("borderMuted", text),
    getBashModeBorderColor: () => (text: string) => theme.fg("bashMode", text),
  };
  return theme;
}

/** pi's Theme as `createTuiTheme` builds it. */
export type TuiTheme = ReturnType<typeof createTuiTheme>;
