import type { TuiKey } from "pi-host";
import { describe, expect, it } from "vitest";
import { initialFullscreenState } from "../../../plugins/ui/tui/fullscreen-state.js";
import { composeFullscreen, type FullscreenInput, fullscreenKey } from "../../../plugins/ui/tui/fullscreen.js";
import { buildBindings, isAction } from "../../../plugins/ui/tui/keybindings.js";
import { SearchCache } from "../../../plugins/ui/tui/transcript-search.js";

const plain = (text: string): string => text.replace(/\x1b\[[0-9;:]*m/g, "").trimEnd();
const { bindings } = buildBindings(undefined);
const key = (name: string, mods: Partial<TuiKey> = {}): TuiKey => ({
  name,
  ctrl: false,
  alt: false,
  shift: false,
  ...mods,
});
const is = (k: TuiKey) => (action: string) => isAction(bindings, action, k);

/** A document of `n` transcript rows and a 4-row live area (blank, editor rule, editor, footer). */
function doc(n: number) {
  const transcript = Array.from({ length: n }, (_, i) => `row ${i}${i === 42 ? " needle" : ""}`);
  const live = ["", "────", "> typed", "footer"];
  return {
    lines: [...transcript, ...live],
    transcriptEnd: n,
    cursor: { row: n + 2, col: 7 },
    prompts: [0, 30, 60],
  };
}

function setup(n = 100, height = 24) {
  const fs = { ...initialFullscreenState(), enabled: true };
  const search = new SearchCache();
  const copied: string[] = [];
  const frame = () => composeFullscreen(doc(n), 40, height, fs, search);
  const input = (): FullscreenInput => ({
    layout: frame().layout,
    search,
    copy: (t) => copied.push(t),
    listFocused: false,
  });
  const press = (k: TuiKey) => fullscreenKey(fs, k, is(k), input());
  return { fs, frame, press, copied };
}

describe("fullscreen screen", () => {
  it("fills the screen: the transcript's end in the viewport, the live area at the bottom, the cursor in the editor", () => {
    const { frame } = setup();
    const { lines, cursor, layout } = frame();
    expect(lines).toHaveLength(24);
    expect(plain(lines[19]!)).toBe("row 99");
    expect(plain(lines[0]!)).toBe("row 80");
    expect(lines.slice(20).map(plain)).toEqual(["", "────", "> typed", "footer"]);
    expect(cursor).toEqual({ row: 22, col: 7 });
    expect(layout).toMatchObject({ top: 80, rows: 20 });
  });

  it("pins the live area to the bottom under a short transcript", () => {
    const { lines } = setup(3).frame();
    expect(lines.map(plain).slice(0, 4)).toEqual(["row 0", "row 1", "row 2", ""]);
    expect(plain(lines[23]!)).toBe("footer");
  });

  it("pages up and down with PageUp/PageDown, shows the scrollbar while scrolled, follows again at the end", () => {
    const { fs, frame, press } = setup();
    expect(press(key("pageUp"))).toEqual({});
    expect(fs.scrollTop).toBe(60);
    const scrolled = frame().lines;
    expect(plain(scrolled[0]!)).toMatch(/^row 60 +[│┃]$/);
    press(key("pageUp"));
    press(key("pageUp"));
    press(key("pageUp"));
    press(key("pageUp"));
    expect(fs.scrollTop).toBe(0);
    press(key("end", { ctrl: true }));
    expect(fs.scrollTop).toBeNull();
    expect(plain(frame().lines[0]!)).toBe("row 80");
    press(key("home", { ctrl: true }));
    expect(fs.scrollTop).toBe(0);
    press(key("pageDown"));
    expect(fs.scrollTop).toBe(20);
  });

  it("jumps to the previous and next prompt", () => {
    const { fs, press } = setup();
    press(key("up", { ctrl: true, shift: true }));
    expect(fs.scrollTop).toBe(60);
    press(key("up", { ctrl: true, shift: true }));
    expect(fs.scrollTop).toBe(30);
    press(key("down", { ctrl: true, shift: true }));
    expect(fs.scrollTop).toBe(60);
  });

  it("scrolls by the wheel, three lines an event and five times that with Alt", () => {
    const { fs, press } = setup();
    const wheel = (action: "wheelUp" | "wheelDown", alt = false): TuiKey =>
      key("mouse", { alt, mouse: { action, button: 0, row: 5, col: 5 } });
    press(wheel("wheelUp"));
    expect(fs.scrollTop).toBe(77);
    press(wheel("wheelUp", true));
    expect(fs.scrollTop).toBe(62);
    press(wheel("wheelDown", true));
    press(wheel("wheelDown"));
    expect(fs.scrollTop).toBeNull();
  });

  it("searches the transcript: the box opens, typing finds and reveals a match, Escape closes it", () => {
    const { fs, frame, press } = setup();
    press(key("f", { ctrl: true, shift: true }));
    expect(fs.search).toEqual({ query: "", current: -1 });
    for (const ch of "NEEDLE") press(key("text", { text: ch }));
    expect(fs.search).toEqual({ query: "NEEDLE", current: 0 });
    const { lines, cursor, layout } = frame();
    expect(layout.rows).toBe(17);
    // Revealed a third down the viewport, painted as the selected match.
    expect(layout.top).toBe(42 - 5);
    expect(lines[5]).toContain("\x1b[30;43mneedle");
    expect(plain(lines[18]!)).toMatch(/^│ NEEDLE +1\/1 │$/);
    expect(cursor).toEqual({ row: 18, col: 8 });
    press(key("backspace"));
    expect(fs.search?.query).toBe("NEEDL");
    expect(press(key("enter"))).toEqual({});
    expect(fs.search?.current).toBe(0);
    press(key("escape"));
    expect(fs.search).toBeNull();
    expect(fs.scrollTop).toBe(37);
    for (const ch of "zzz") press(key("text", { text: ch }));
    expect(fs.search).toBeNull();
  });

  it("says so when nothing matches, and leaves Ctrl+C to the app while searching", () => {
    const { fs, frame, press } = setup();
    press(key("f", { ctrl: true, shift: true }));
    for (const ch of "nothing-like-it") press(key("text", { text: ch }));
    expect(fs.search?.current).toBe(-1);
    expect(
      frame()
        .lines.map(plain)
        .some((r) => r.includes("No matches")),
    ).toBe(true);
    expect(press(key("c", { ctrl: true }))).toBeUndefined();
  });

  it("selects by dragging and copies the text on release; a click without a drag selects nothing", () => {
    const { fs, frame, press, copied } = setup();
    const at = (action: "press" | "drag" | "release", row: number, col: number): TuiKey =>
      key("mouse", { mouse: { action, button: 0, row, col } });
    press(at("press", 1, 2));
    press(at("drag", 2, 3));
    press(at("release", 2, 3));
    expect(copied).toEqual(["w 81\nrow"]);
    expect(fs.selection).toMatchObject({ anchor: { row: 81, col: 2 }, head: { row: 82, col: 3 }, dragging: false });
    expect(frame().lines[1]).toContain("\x1b[7m");
    press(at("press", 4, 4));
    press(at("release", 4, 4));
    expect(fs.selection).toBeNull();
    expect(copied).toHaveLength(1);
  });

  it("leaves keys it does not own to the editor", () => {
    const { press } = setup();
    expect(press(key("text", { text: "a" }))).toBeUndefined();
    expect(press(key("left"))).toBeUndefined();
  });
});
