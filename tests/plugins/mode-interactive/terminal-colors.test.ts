import { describe, expect, it } from "vitest";
import {
  stripLateReplies,
  TERMINAL_COLOR_QUERY,
  TerminalColorReplies,
} from "../../../plugins/modes/mode-interactive/terminal-colors.js";

describe("the terminal's colour replies", () => {
  it("asks OSC 10, OSC 11, OSC 4 for palette colours 0-15, and then DA1, whose reply ends the answers", () => {
    const palette = Array.from({ length: 16 }, (_, i) => `\x1b]4;${i};?\x07`).join("");
    expect(TERMINAL_COLOR_QUERY).toBe(`\x1b]10;?\x07\x1b]11;?\x07${palette}\x1b[c`);
  });

  it("keeps the palette only when all 16 colours answered (a split reply too)", () => {
    const replies = new TerminalColorReplies();
    let rest = "";
    for (let i = 0; i < 15; i++) rest += replies.feed(`\x1b]4;${i};rgb:${(i * 16).toString(16)}/00/ff\x1b\\`);
    expect(rest).toBe("");
    expect(replies.colors.palette).toBeUndefined();
    expect(replies.feed("k\x1b]4;15;rgb:ff")).toBe("k");
    expect(replies.feed("ff/ffff/0000\x07\x1b[?1;2c")).toBe("");
    expect(replies.done).toBe(true);
    expect(replies.colors.palette).toHaveLength(16);
    expect(replies.colors.palette![1]).toEqual({ r: 16, g: 0, b: 255 });
    expect(replies.colors.palette![15]).toEqual({ r: 255, g: 255, b: 0 });
    // tmux 3.3 leaves the index out: the reply cannot be placed, but it never becomes keys either.
    const tmux = new TerminalColorReplies();
    expect(tmux.feed("\x1b]4;rgb:0000/ffff/0000\x07x")).toBe("x");
    expect(tmux.colors).toEqual({});
    const some = new TerminalColorReplies();
    some.feed("\x1b]4;1;rgb:ff/00/00\x07\x1b[?1;2c");
    expect(some.colors).toEqual({});
  });

  it("reads OSC 10/11 replies in 1-4 hex digits a channel, ended by BEL or ST, and keeps the keys around them", () => {
    const replies = new TerminalColorReplies();
    const rest = replies.feed("a\x1b]10;rgb:ffff/8080/0000\x1b\\b\x1b]11;rgb:1e/1e/2e\x07c");
    expect(rest).toBe("abc");
    expect(replies.colors).toEqual({ foreground: { r: 255, g: 128, b: 0 }, background: { r: 30, g: 30, b: 46 } });
    expect(replies.done).toBe(false);
    expect(replies.feed("\x1b[?62;22c")).toBe("");
    expect(replies.done).toBe(true);
  });

  it("a reply split between reads is held until it is whole; a lone Escape or an arrow key is not held", () => {
    const replies = new TerminalColorReplies();
    expect(replies.feed("x\x1b]11;rgb:ff")).toBe("x");
    expect(replies.feed("ff/ffff/ffff\x07\x1b[?1;")).toBe("");
    expect(replies.colors.background).toEqual({ r: 255, g: 255, b: 255 });
    expect(replies.feed("2c")).toBe("");
    expect(replies.done).toBe(true);
    const keys = new TerminalColorReplies();
    expect(keys.feed("\x1b")).toBe("\x1b");
    expect(keys.feed("\x1b[A")).toBe("\x1b[A");
    // What was held as a possible reply goes back to the keys when the wait ends.
    expect(keys.feed("\x1b]")).toBe("");
    expect(keys.flush()).toBe("\x1b]");
    expect(keys.colors).toEqual({});
  });

  it("a terminal that ignores the colour queries only answers DA1", () => {
    const replies = new TerminalColorReplies();
    expect(replies.feed("\x1b[?1;2c")).toBe("");
    expect(replies.done).toBe(true);
    expect(replies.colors).toEqual({});
  });

  it("late replies never become keys", () => {
    expect(stripLateReplies("\x1b]11;rgb:0000/0000/0000\x07hi\x1b[?1;2c")).toBe("hi");
    expect(stripLateReplies("\x1b]4;3;rgb:ff/ff/00\x07ho")).toBe("ho");
    expect(stripLateReplies("\x1b[A")).toBe("\x1b[A");
  });
});

describe("light/dark reports (mode 2031)", () => {
  it("takes the reports out of the input, the last one deciding", async () => {
    const { takeSchemeReports } = await import("../../../plugins/modes/mode-interactive/terminal-colors.js");
    expect(takeSchemeReports("ab")).toEqual({ rest: "ab" });
    expect(takeSchemeReports("a\x1b[?997;2nb")).toEqual({ rest: "ab", scheme: "light" });
    expect(takeSchemeReports("\x1b[?997;2n\x1b[?997;1nx")).toEqual({ rest: "x", scheme: "dark" });
  });

  it("asks the colours again once per switch and hands over what the terminal answered, keys passing through", async () => {
    const { ColorSchemeWatch } = await import("../../../plugins/modes/mode-interactive/color-scheme-watch.js");
    const written: string[] = [];
    const changes: unknown[] = [];
    const watch = new ColorSchemeWatch(
      (s) => written.push(s),
      (c) => changes.push(c),
      10_000,
    );
    expect(watch.feed("k\x1b[?997;2n")).toBe("k");
    expect(watch.feed("\x1b[?997;2n")).toBe("");
    expect(written).toHaveLength(1);
    expect(written[0]).toContain("\x1b]11;?\x07");
    expect(watch.feed("x\x1b]11;rgb:ffff/ffff/ffff\x07y")).toBe("xy");
    expect(changes).toEqual([]);
    expect(watch.feed("\x1b[?62;22cz")).toBe("z");
    expect(changes).toEqual([{ background: { r: 255, g: 255, b: 255 }, scheme: "light" }]);
    watch.stop();
  });
});
