/**
 * Keys the view decoded, handed to extension components as the terminal bytes pi-tui reads: each one
 * must come back as the same key id through pi-tui's `parseKey` / `matchesKey`.
 */
import { describe, expect, it } from "vitest";
import type { TuiKey } from "../../../contracts/tui.js";
import { keyData } from "../../../plugins/integrations/pi-extensions/key-data.js";
import { Key, matchesKey, parseKey } from "../../../plugins/integrations/pi-extensions/pi-tui.js";

const key = (name: string, mods: Partial<TuiKey> = {}): TuiKey => ({
  name,
  ctrl: false,
  alt: false,
  shift: false,
  ...mods,
});

describe("keyData", () => {
  it("plain keys are the legacy sequences", () => {
    expect(keyData(key("enter"))).toBe("\r");
    expect(keyData(key("escape"))).toBe("\x1b");
    expect(keyData(key("up"))).toBe("\x1b[A");
    expect(keyData(key("pageDown"))).toBe("\x1b[6~");
    expect(keyData(key("text", { text: "hé" }))).toBe("hé");
    expect(keyData(key("paste", { text: "a\nb" }))).toBe("\x1b[200~a\nb\x1b[201~");
  });

  it.each([
    [key("c", { ctrl: true }), "ctrl+c"],
    [key("text", { text: "y", alt: true }), "alt+y"],
    [key("tab", { shift: true }), "shift+tab"],
    [key("up", { ctrl: true }), "ctrl+up"],
    [key("left", { alt: true, shift: true }), "shift+alt+left"],
    [key("delete", { ctrl: true }), "ctrl+delete"],
    [key("f5"), "f5"],
    [key("f2", { shift: true }), "shift+f2"],
    [key("enter", { shift: true }), "shift+enter"],
    [key("p", { ctrl: true, shift: true }), "ctrl+shift+p"],
    [key("backspace", { alt: true }), "alt+backspace"],
    [key("home"), "home"],
  ])("%j reads back as %s", (pressed, id) => {
    const data = keyData(pressed);
    expect(matchesKey(data, id)).toBe(true);
    expect(parseKey(data)).toBeDefined();
  });

  it("Key's builders and matchesKey agree with the encoded keys", () => {
    const ctrlShift = Key.ctrlShift as (k: string) => string;
    expect(matchesKey(keyData(key("k", { ctrl: true, shift: true })), ctrlShift("k"))).toBe(true);
    expect(matchesKey(keyData(key("k", { ctrl: true })), ctrlShift("k"))).toBe(false);
    expect(matchesKey(keyData(key("enter")), Key.enter as string)).toBe(true);
  });
});
