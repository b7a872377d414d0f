/**
 * pi 1.6.0's `system` theme for a terminal that reported its colours. Each token keeps its hue family
 * (errors red, links blue, ...): with the 16-colour palette reported (OSC 4), its hue and saturation come
 * from the palette colour of the family's ANSI slot, so the UI takes the terminal theme's own colours;
 * with only the background reported, from the family's own hue. The lightness is solved for contrast: each
 * token is moved away from the background (lighter on dark, darker on light) just far enough to reach its
 * level's WCAG contrast on the background and on every panel it is drawn on. Body text is the terminal's
 * own foreground when that reads at 4.5:1 on every surface, else the foreground's hue moved until it does.
 * A palette colour never gains chroma when it moves to another lightness, so pastel palettes stay pastel.
 */
import type { TuiRgb, TuiTerminalColors } from "pi-host";
import { converter, modeLrgb, modeOkhsl, modeOklab, modeOklch, modeRgb, toGamut, useMode } from "culori/fn";
import type { ParsedTheme, TermColor } from "./theme-parse.js";
import { SYSTEM_THEME } from "./theme-parse.js";
import {
  appearanceOf,
  contrast,
  FAMILY_SLOTS,
  FOREGROUND_TOKENS,
  type Family,
  PANELS,
  TOKEN_FAMILIES,
  TOKEN_SLOTS,
} from "./theme-system.js";
import { TOKEN_NAMES, type ThemeToken } from "./theme-tokens.js";

/** A family's own hue (OKHSL degrees) and saturation, for a terminal that reported no palette. */
const OWN_HUES: Record<Family, { h: number; s: number }> = {
  neutral: { h: 250, s: 0.06 },
  blue: { h: 250, s: 0.6 },
  green: { h: 150, s: 0.62 },
  red: { h: 18, s: 0.78 },
  yellow: { h: 85, s: 0.85 },
  orange: { h: 55, s: 0.75 },
  violet: { h: 300, s: 0.5 },
  calamine: { h: 200, s: 0.6 },
  thinkingSlate: { h: 250, s: 0.18 },
  thinkingBlue: { h: 250, s: 0.4 },
  thinkingPeriwinkle: { h: 265, s: 0.5 },
  thinkingViolet: { h: 300, s: 0.65 },
  thinkingMagenta: { h: 335, s: 0.75 },
  thinkingRed: { h: 18, s: 0.95 },
};

/** The WCAG contrast a level asks for on its surfaces, on a dark and on a light background. */
const LEVELS = {
  panel: { dark: 1.3, light: 1.15 },
  track: { dark: 1.8, light: 1.18 },
  thumb: { dark: 4, light: 2.2 },
  subtle: { dark: 3.8, light: 2.4 },
  readable: { dark: 5.2, light: 4.5 },
} as const;

/** The thinking levels step up in contrast from off to max. */
const THINKING: readonly ThemeToken[] = [
  "thinkingOff",
  "thinkingMinimal",
  "thinkingLow",
  "thinkingMedium",
  "thinkingHigh",
  "thinkingXhigh",
  "thinkingMax",
];

/** Contrast body text must reach on every surface it is drawn on. */
const TEXT_CONTRAST = 4.5;

/** What a token must contrast with, and how much. */
function rule(
  token: ThemeToken,
  appearance: "dark" | "light",
): { on: "background" | "panels" | ThemeToken; ratio: number } {
  const level = (name: keyof typeof LEVELS): number => LEVELS[name][appearance];
  if (PANELS.includes(token)) return { on: "background", ratio: level("panel") };
  if (token === "scrollbarTrack") return { on: "background", ratio: level("track") };
  if (token === "scrollbarThumb") return { on: "scrollbarTrack", ratio: level("thumb") };
  if (token === "searchMatchText") return { on: "searchMatchBg", ratio: level("readable") };
  if (token === "dim" || token === "borderMuted") return { on: "panels", ratio: level("subtle") };
  const step = THINKING.indexOf(token);
  if (step >= 0) {
    const [low, high] = appearance === "dark" ? [3.3, 5.1] : [1.5, 2.3];
    return { on: "background", ratio: low + ((high - low) * step) / (THINKING.length - 1) };
  }
  return { on: "panels", ratio: level("readable") };
}

interface Okhsl {
  h: number;
  s: number;
  l: number;
}

let ready = false;
/** culori's converters, registered once. */
function colors(): {
  okhsl: (rgb: TuiRgb) => Okhsl;
  chroma: (rgb: TuiRgb) => number;
  fromOkhsl: (c: Okhsl) => TuiRgb;
  withChroma: (rgb: TuiRgb, chroma: number) => TuiRgb;
} {
  if (!ready) {
    for (const mode of [modeRgb, modeLrgb, modeOklab, modeOklch, modeOkhsl]) useMode(mode);
    ready = true;
  }
  const toOkhsl = converter("okhsl");
  const toOklch = converter("oklch");
  const toRgb = converter("rgb");
  const gamut = toGamut("rgb", "oklch");
  const unit = (rgb: TuiRgb) => ({ mode: "rgb" as const, r: rgb.r / 255, g: rgb.g / 255, b: rgb.b / 255 });
  const out = (c: { r?: number; g?: number; b?: number }): TuiRgb => {
    const channel = (v: number | undefined): number => Math.round(Math.min(1, Math.max(0, v ?? 0)) * 255);
    return { r: channel(c.r), g: channel(c.g), b: channel(c.b) };
  };
  return {
    okhsl: (rgb) => {
      const c = toOkhsl(unit(rgb)) as { h?: number; s?: number; l?: number };
      return { h: c.h ?? 0, s: c.s ?? 0, l: c.l ?? 0 };
    },
    chroma: (rgb) => (toOklch(unit(rgb)) as { c?: number }).c ?? 0,
    // OKHSL is undefined at exactly black and white: those are reached as the nearest in-range lightness.
    fromOkhsl: ({ h, s, l }) => out(toRgb({ mode: "okhsl", h, s, l: Math.min(0.9999, Math.max(0.0001, l)) }) as never),
    withChroma: (rgb, chroma) => {
      const lch = toOklch(unit(rgb)) as { l: number; h?: number };
      return out(gamut({ mode: "oklch", l: lch.l, c: chroma, h: lch.h ?? 0 }) as never);
    },
  };
}

/** How much of a colour's saturation is kept at a lightness: all of it mid-way, less toward black and white. */
function saturationAt(l: number): number {
  return Math.max(0.25, 1 - ((l - 0.5) / 0.5) ** 2);
}

/**
 * The system theme fitted to the reported colours; undefined when the terminal reported no background
 * (the theme then uses ANSI indices, which the terminal renders itself).
 */
export function fitSystemTheme(reported: TuiTerminalColors): ParsedTheme | undefined {
  const { background, foreground } = reported;
  if (background === undefined) return undefined;
  const palette = reported.palette?.length === 16 ? reported.palette : undefined;
  const appearance = appearanceOf(background, foreground);
  const c = colors();
  const away = appearance === "dark" ? 1 : 0;
  const bgL = c.okhsl(background).l;

  /** The token's colour at an OKHSL lightness. */
  const paint = (token: ThemeToken, l: number): TuiRgb => {
    const family = TOKEN_FAMILIES[token];
    if (palette === undefined) {
      const own = OWN_HUES[family];
      return c.fromOkhsl({ h: own.h, s: own.s * saturationAt(l), l });
    }
    const source = palette[TOKEN_SLOTS[token] ?? FAMILY_SLOTS[family]]!;
    const from = c.okhsl(source);
    const keep = Math.min(1, saturationAt(l) / saturationAt(from.l));
    const color = c.fromOkhsl({ h: from.h, s: from.s * keep, l });
    const cap = c.chroma(source) * keep;
    return c.chroma(color) <= cap ? color : c.withChroma(color, cap);
  };

  /** The lightness nearest the surfaces that reaches `ratio` on all of them (the far end when none does). */
  const solve = (make: (l: number) => TuiRgb, surfaces: TuiRgb[], ratio: number): TuiRgb => {
    const meets = (l: number): boolean => surfaces.every((s) => contrast(make(l), s) >= ratio);
    if (!meets(away)) return make(away);
    let [near, far] = [bgL, away];
    for (let i = 0; i < 24; i++) {
      const middle = (near + far) / 2;
      if (meets(middle)) far = middle;
      else near = middle;
    }
    return make(far);
  };

  const solved = new Map<ThemeToken, TuiRgb>();
  // Panels first: every other token is placed on them.
  for (const token of PANELS)
    solved.set(
      token,
      solve((l) => paint(token, l), [background], rule(token, appearance).ratio),
    );
  const panels = [background, ...PANELS.map((p) => solved.get(p)!)];
  const order = [...TOKEN_NAMES].sort((a, b) => Number(b === "scrollbarTrack") - Number(a === "scrollbarTrack"));
  const out = {} as Record<ThemeToken, TermColor>;
  for (const token of order) {
    if (FOREGROUND_TOKENS.includes(token)) continue;
    const { on, ratio } = rule(token, appearance);
    const surfaces = on === "background" ? [background] : on === "panels" ? panels : [solved.get(on) ?? background];
    const color = solved.get(token) ?? solve((l) => paint(token, l), surfaces, ratio);
    solved.set(token, color);
    out[token] = { kind: "rgb", ...color };
  }
  for (const token of FOREGROUND_TOKENS) {
    if (foreground !== undefined && panels.every((s) => contrast(foreground, s) >= TEXT_CONTRAST)) {
      out[token] = { kind: "default" };
      continue;
    }
    const hue = c.okhsl(foreground ?? (appearance === "dark" ? { r: 255, g: 255, b: 255 } : { r: 0, g: 0, b: 0 }));
    const text = solve((l) => c.fromOkhsl({ h: hue.h, s: hue.s, l }), panels, TEXT_CONTRAST);
    out[token] = { kind: "rgb", ...text };
  }
  return { name: SYSTEM_THEME, appearance, colors: out };
}
