import { describe, expect, it } from "vitest";
import { nearest256, trueColorOf } from "../../../plugins/ui/tui/color-depth.js";
import { Theme } from "../../../plugins/ui/tui/theme.js";
import { DARK_THEME } from "../../../plugins/ui/tui/theme-builtin.js";

describe("24-bit colour or the nearest 256-colour index", () => {
  it("decides as pi: the setting, then PI_TRUE_COLOR, then the environment (tmux and screen need COLORTERM)", () => {
    expect(trueColorOf(false, { COLORTERM: "truecolor" })).toBe(false);
    expect(trueColorOf(true, { TERM: "screen" })).toBe(true);
    expect(trueColorOf("auto", { PI_TRUE_COLOR: "0", COLORTERM: "truecolor" })).toBe(false);
    expect(trueColorOf(undefined, { PI_TRUE_COLOR: "1", TERM: "dumb" })).toBe(true);
    expect(trueColorOf(undefined, { COLORTERM: "24bit", TERM: "xterm" })).toBe(true);
    expect(trueColorOf(undefined, { TERM: "xterm-direct" })).toBe(true);
    expect(trueColorOf(undefined, { TERM: "tmux-256color", TMUX: "/tmp/x", KITTY_WINDOW_ID: "1" })).toBe(false);
    expect(trueColorOf(undefined, { TERM: "tmux-256color", TMUX: "/tmp/x", COLORTERM: "truecolor" })).toBe(true);
    expect(trueColorOf(undefined, { TERM: "xterm-kitty", KITTY_WINDOW_ID: "1" })).toBe(true);
    expect(trueColorOf(undefined, { TERM: "xterm-256color", TERM_PROGRAM: "vscode" })).toBe(true);
    if (process.platform !== "win32") expect(trueColorOf(undefined, { TERM: "xterm-256color" })).toBe(false);
  });

  it("maps a colour to the cube or the grey ramp, whichever is nearer", () => {
    expect(nearest256({ r: 255, g: 0, b: 0 })).toBe(196);
    expect(nearest256({ r: 0, g: 0, b: 0 })).toBe(16);
    expect(nearest256({ r: 128, g: 128, b: 128 })).toBe(244);
    expect(nearest256({ r: 0, g: 135, b: 255 })).toBe(33);
  });

  it("a theme without 24-bit colour paints 256-colour indices and keys its cached rows apart", () => {
    const full = new Theme(DARK_THEME);
    const indexed = new Theme(DARK_THEME, { trueColor: false });
    expect(full.fg("error", "x")).toMatch(/^\x1b\[38;2;/);
    expect(indexed.fg("error", "x")).toMatch(/^\x1b\[38;5;\d+mx/);
    expect(indexed.bg("userMessageBg", "x")).toMatch(/^\x1b\[48;5;\d+mx/);
    expect(indexed.key).not.toBe(full.key);
  });
});
