import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_KEYBINDINGS } from "../../../plugins/ui/tui/keybinding-actions.js";
import { buildBindings, isAction, KeybindingsFile, keyIds, parseKeySpec } from "../../../plugins/ui/tui/keybindings.js";

const press = (name: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}, text?: string) => ({
  name,
  ctrl: mods.ctrl ?? false,
  alt: mods.alt ?? false,
  shift: mods.shift ?? false,
  ...(text === undefined ? {} : { text }),
});

describe("keybindings.json", () => {
  it("knows pi 1.6.0's 90 actions, every default a valid key", () => {
    expect(Object.keys(DEFAULT_KEYBINDINGS)).toHaveLength(90);
    for (const keys of Object.values(DEFAULT_KEYBINDINGS))
      for (const key of keys) expect(parseKeySpec(key), key).toBeDefined();
  });

  it("parses pi's key syntax into one canonical form", () => {
    expect(parseKeySpec("shift+ctrl+p")).toBe("ctrl+shift+p");
    expect(parseKeySpec("ctrl+shift+alt+x")).toBe("ctrl+alt+shift+x");
    expect(parseKeySpec("esc")).toBe("escape");
    expect(parseKeySpec("return")).toBe("enter");
    expect(parseKeySpec("pageUp")).toBe("pageup");
    expect(parseKeySpec("ctrl+]")).toBe("ctrl+]");
    expect(parseKeySpec("ctrl++")).toBe("ctrl++");
    expect(parseKeySpec("super+k")).toBe("super+k");
    expect(parseKeySpec("f12")).toBe("f12");
    for (const bad of ["", "ctrl+", "hyper+x", "ctrl+ctrl+x", "ctrl+foo", "f13", "ab"])
      expect(parseKeySpec(bad), bad).toBeUndefined();
  });

  it("matches decoded key presses: typed letters, Shift as an upper-case letter, Ctrl+J as the line feed", () => {
    expect(keyIds(press("text", {}, "x"))).toEqual(["x"]);
    expect(keyIds(press("text", {}, "L"))).toEqual(["shift+l"]);
    expect(keyIds(press("p", { ctrl: true, shift: true }))).toEqual(["ctrl+shift+p"]);
    expect(keyIds(press("enter", { shift: true }))).toEqual(["shift+enter", "ctrl+j"]);
    expect(keyIds(press("paste", {}, "pasted"))).toEqual([]);
  });

  it("a configured value replaces the defaults; [] disables; problems are one warning line each", () => {
    const { bindings, warnings } = buildBindings({
      $schema: "https://pi.dev/schemas/keybindings.schema.json",
      "app.model.select": "ctrl+k",
      "app.thinking.toggle": [],
      "app.nope": "ctrl+x",
      "app.tools.expand": ["ctrl+o", "ctrl+bogus"],
      "app.exit": 5,
    });
    expect(isAction(bindings, "app.model.select", press("k", { ctrl: true }))).toBe(true);
    expect(isAction(bindings, "app.model.select", press("l", { ctrl: true }))).toBe(false);
    expect(isAction(bindings, "app.thinking.toggle", press("t", { ctrl: true }))).toBe(false);
    expect(isAction(bindings, "app.tools.expand", press("o", { ctrl: true }))).toBe(true);
    expect(isAction(bindings, "app.exit", press("d", { ctrl: true }))).toBe(true);
    expect(warnings).toEqual([
      'keybindings.json: unknown action "app.nope" (see docs/keybindings.md for the action ids)',
      'keybindings.json: "ctrl+bogus" for "app.tools.expand" is not a key; it is ignored',
      'keybindings.json: "app.exit" must be a key or a list of keys; it keeps its default',
    ]);
  });

  it("the file is re-read when it changes, and broken JSON falls back to the defaults with one warning", () => {
    const path = join(mkdtempSync(join(tmpdir(), "pi-keys-")), "keybindings.json");
    const file = new KeybindingsFile(path);
    expect(file.current().warnings).toEqual([]);
    writeFileSync(path, JSON.stringify({ "app.model.select": "alt+m" }));
    const first = file.current();
    expect(isAction(first.bindings, "app.model.select", press("m", { alt: true }))).toBe(true);
    expect(file.current().warnings).toEqual([]);
    writeFileSync(path, "{ not json");
    const broken = file.current();
    expect(broken.warnings).toHaveLength(1);
    expect(broken.warnings[0]).toMatch(/^keybindings\.json: .*; using the default keys$/);
    expect(isAction(broken.bindings, "app.model.select", press("l", { ctrl: true }))).toBe(true);
  });
});
