import { converter, modeLrgb, modeOkhsl, modeOklab, modeOklch, modeRgb, useMode } from "culori/fn";
import type { TuiRgb } from "pi-host";
import { describe, expect, it } from "vitest";
import type { TermColor } from "../../../plugins/ui/tui/theme-parse.js";
import { fitSystemTheme } from "../../../plugins/ui/tui/theme-system-fit.js";
import { contrast } from "../../../plugins/ui/tui/theme-system.js";

const hex = (h: string): TuiRgb => ({
  r: Number.parseInt(h.slice(1, 3), 16),
  g: Number.parseInt(h.slice(3, 5), 16),
  b: Number.parseInt(h.slice(5, 7), 16),
});
/** A dark terminal theme's 16 colours (pastel: Catppuccin Mocha). */
const MOCHA = [
  "#45475a",
  "#f38ba8",
  "#a6e3a1",
  "#f9e2af",
  "#89b4fa",
  "#f5c2e7",
  "#94e2d5",
  "#bac2de",
  "#585b70",
  "#f38ba8",
  "#a6e3a1",
  "#f9e2af",
  "#89b4fa",
  "#f5c2e7",
  "#94e2d5",
  "#a6adc8",
].map(hex);

for (const mode of [modeRgb, modeLrgb, modeOklab, modeOklch, modeOkhsl]) useMode(mode);
const toOklch = converter("oklch");
const lch = (c: TuiRgb) =>
  toOklch({ mode: "rgb", r: c.r / 255, g: c.g / 255, b: c.b / 255 }) as { l: number; c: number; h: number };
const rgbOf = (c: TermColor): TuiRgb => {
  if (c.kind !== "rgb") throw new Error(`not an RGB colour: ${JSON.stringify(c)}`);
  return { r: c.r, g: c.g, b: c.b };
};
const hueGap = (a: number, b: number): number => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

describe("the system theme fitted to the terminal's reported colours", () => {
  it("without a reported background there is nothing to fit (ANSI indices are used)", () => {
    expect(fitSystemTheme({})).toBeUndefined();
    expect(fitSystemTheme({ palette: MOCHA })).toBeUndefined();
  });

  it("with the palette: each token takes its slot's hue, stays pastel, and reads on the background and panels", () => {
    const bg = hex("#1e1e2e");
    const theme = fitSystemTheme({ background: bg, foreground: hex("#cdd6f4"), palette: MOCHA })!;
    expect(theme.appearance).toBe("dark");
    for (const [token, slot] of [
      ["error", 1],
      ["success", 2],
      ["mdLink", 4],
      ["accent", 5],
      ["syntaxVariable", 6],
    ] as const) {
      const color = rgbOf(theme.colors[token]);
      expect(hueGap(lch(color).h, lch(MOCHA[slot]!).h)).toBeLessThan(8);
      // Never more colourful than the palette colour it came from.
      expect(lch(color).c).toBeLessThanOrEqual(lch(MOCHA[slot]!).c + 0.002);
      expect(contrast(color, bg)).toBeGreaterThanOrEqual(5.2);
      expect(contrast(color, rgbOf(theme.colors.toolErrorBg))).toBeGreaterThanOrEqual(5.2);
    }
    // Panels stand a little apart from the background, lighter on a dark one.
    const panel = rgbOf(theme.colors.userMessageBg);
    expect(contrast(panel, bg)).toBeGreaterThan(1.2);
    expect(lch(panel).l).toBeGreaterThan(lch(bg).l);
    // The terminal's own foreground reads on every panel: body text is the default colour.
    expect(theme.colors.text).toEqual({ kind: "default" });
  });

  it("a different palette gives different hues: a terminal whose red slot is green shows green errors", () => {
    const bg = hex("#1e1e2e");
    const swapped = [...MOCHA];
    swapped[1] = hex("#a6e3a1");
    const error = rgbOf(fitSystemTheme({ background: bg, palette: swapped })!.colors.error);
    expect(hueGap(lch(error).h, lch(hex("#a6e3a1")).h)).toBeLessThan(8);
    // Without the palette, the family's own red.
    const own = rgbOf(fitSystemTheme({ background: bg })!.colors.error);
    expect(hueGap(lch(own).h, lch(hex("#ff0000")).h)).toBeLessThan(25);
  });

  it("on a light background: darker colours, body text of at least 4.5:1 even when the foreground is too faint", () => {
    const bg = hex("#ffffff");
    const theme = fitSystemTheme({ background: bg, foreground: hex("#bbbbbb"), palette: MOCHA })!;
    expect(theme.appearance).toBe("light");
    const text = rgbOf(theme.colors.text);
    for (const surface of [bg, rgbOf(theme.colors.userMessageBg), rgbOf(theme.colors.toolSuccessBg)])
      expect(contrast(text, surface)).toBeGreaterThanOrEqual(4.5);
    expect(lch(rgbOf(theme.colors.selectedBg)).l).toBeLessThan(lch(bg).l);
    expect(contrast(rgbOf(theme.colors.warning), bg)).toBeGreaterThanOrEqual(4.5);
  });
});
