import { describe, expect, it } from "vitest";
import { DiffRenderer } from "../../../plugins/modes/mode-interactive/renderer.js";
import { sgrMouse } from "../../../plugins/modes/mode-interactive/keys.js";
import { KeyDecoder } from "../../../plugins/modes/mode-interactive/keys.js";
import { choicesFrom } from "../../../plugins/modes/mode-interactive/tui-mode.js";
import { VirtualTerminal } from "./virtual-terminal.js";

function setup(width = 40, height = 10) {
  const vt = new VirtualTerminal(width, height);
  vt.write("shell history\r\n$ pi\r\n");
  let current = "";
  const renderer = new DiffRenderer((bytes) => {
    current += bytes;
    vt.write(bytes);
  }, "alternate");
  renderer.begin(width, height);
  const draw = (lines: string[], cursor: { row: number; col: number } | null = null): string => {
    current = "";
    renderer.render({ lines, cursor }, vt.width, vt.height);
    return current;
  };
  return { vt, renderer, draw };
}

/** A screen: `rows` transcript rows ending at `last`, then a 2-row live area. */
const screen = (last: number, rows = 8): string[] => [
  ...Array.from({ length: rows }, (_, i) => `transcript row ${last - rows + 1 + i}`),
  "──────",
  ">",
];

describe("differential renderer on the alternate screen", () => {
  it("enters the alternate screen with mouse reporting and leaves it, the shell's screen back as it was", () => {
    const { vt, renderer, draw } = setup();
    expect(vt.alternate).toBe(true);
    expect([...vt.mouseModes].sort()).toEqual(["?1000", "?1002", "?1006"]);
    draw(screen(7), { row: 9, col: 2 });
    expect(vt.lines()[0]).toBe("transcript row 0");
    expect(vt.scrollback).toEqual([]);
    draw(screen(7), null);
    expect(vt.cursorVisible).toBe(false);
    renderer.end();
    expect(vt.alternate).toBe(false);
    expect(vt.mouseModes.size).toBe(0);
    expect(vt.cursorVisible).toBe(true);
    expect(vt.lines().slice(0, 2)).toEqual(["shell history", "$ pi"]);
  });

  it("scrolls a viewport that follows new rows inside a scroll region, writing only the new row", () => {
    const { vt, draw, renderer } = setup();
    draw(screen(7));
    const before = renderer.stats.bytes;
    const bytes = draw(screen(8));
    expect(vt.lines()).toEqual(screen(8));
    expect(bytes).toContain("\x1b[1;8r\x1b[1S\x1b[r");
    expect(bytes.match(/transcript row/g)).toHaveLength(1);
    expect(renderer.stats.bytes - before).toBeLessThan(80);
    // Three rows at once, and a row that changed under the scroll too.
    const next = screen(11);
    next[0] = "changed";
    draw(next);
    expect(vt.lines()).toEqual(next);
    expect(renderer.stats.fullRedraws).toBe(0);
  });

  it("keeps the bottom rows of a document taller than the screen, the cursor with them", () => {
    const { vt, draw } = setup(40, 6);
    draw(
      Array.from({ length: 9 }, (_, i) => `line ${i}`),
      { row: 8, col: 3 },
    );
    expect(vt.lines()).toEqual(["line 3", "line 4", "line 5", "line 6", "line 7", "line 8"]);
    expect([vt.row, vt.col]).toEqual([5, 3]);
  });

  it("redraws at a new size without touching the normal screen's scrollback", () => {
    const { vt, draw } = setup();
    draw(screen(7));
    vt.resize(30, 8);
    const bytes = draw(screen(20, 6));
    expect(bytes).not.toContain("\x1b[3J");
    expect(vt.lines()).toEqual(screen(20, 6));
  });
});

describe("SGR mouse reports", () => {
  it("decodes presses, drags, releases and the wheel with modifiers and 0-based cells", () => {
    expect(sgrMouse("0;10;5", true)).toEqual({
      name: "mouse",
      ctrl: false,
      alt: false,
      shift: false,
      mouse: { action: "press", button: 0, row: 4, col: 9 },
    });
    expect(sgrMouse("32;11;6", true)?.mouse).toEqual({ action: "drag", button: 0, row: 5, col: 10 });
    expect(sgrMouse("0;11;6", false)?.mouse?.action).toBe("release");
    expect(sgrMouse("64;1;1", true)?.mouse?.action).toBe("wheelUp");
    const down = sgrMouse("73;1;1", true);
    expect(down?.mouse?.action).toBe("wheelDown");
    expect(down?.alt).toBe(true);
    expect(sgrMouse("66;1;1", true)).toBeUndefined();
    expect(sgrMouse("x;1;1", true)).toBeUndefined();
  });

  it("comes out of the key decoder as a mouse key between ordinary keys", () => {
    const keys = new KeyDecoder().feed("a\x1b[<65;3;4Mb");
    expect(keys.map((k) => k.name)).toEqual(["text", "mouse", "text"]);
    expect(keys[1]!.mouse).toEqual({ action: "wheelDown", button: 1, row: 3, col: 2 });
  });
});

describe("terminal mode choice", () => {
  it("takes --tui-mode over the tuiMode setting over the config, and pi's fullscreen settings", () => {
    expect(choicesFrom(undefined, {}, "fullscreen").tuiMode).toBe("fullscreen");
    expect(choicesFrom(undefined, { tuiMode: "regular" }, "fullscreen").tuiMode).toBe("regular");
    expect(choicesFrom("fullscreen", { tuiMode: "regular" }, "regular").tuiMode).toBe("fullscreen");
    expect(choicesFrom(undefined, { tuiMode: "bogus" }, "regular").tuiMode).toBe("regular");
    const choices = choicesFrom(
      undefined,
      {
        fullscreenScrollbar: "always",
        fullscreenCopyOnSelect: false,
        fullscreenWheelScrollLines: 7,
        fullscreenExitOutput: "resume-hint",
      },
      "fullscreen",
    );
    expect(choices.fullscreen).toEqual({ scrollbar: "always", copyOnSelect: false, wheelScrollLines: 7 });
    expect(choices.exitOutput).toBe("resume-hint");
    expect(choicesFrom(undefined, { fullscreenWheelScrollLines: 500 }, "fullscreen").fullscreen.wheelScrollLines).toBe(
      "auto",
    );
  });
});
