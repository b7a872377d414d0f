import { describe, expect, it } from "vitest";
import { DiffRenderer } from "../../../plugins/modes/mode-interactive/renderer.js";
import { VirtualTerminal } from "./virtual-terminal.js";

/** A renderer drawing into a virtual terminal, recording each frame's bytes. */
function setup(width = 40, height = 10) {
  const vt = new VirtualTerminal(width, height);
  const frames: string[] = [];
  let current = "";
  const renderer = new DiffRenderer((bytes) => {
    current += bytes;
    vt.write(bytes);
  });
  const draw = (lines: string[], cursor: { row: number; col: number } | null = null): string => {
    current = "";
    renderer.render({ lines, cursor }, vt.width, vt.height);
    frames.push(current);
    return current;
  };
  return { vt, renderer, draw, frames };
}

/** What the screen must show for document `doc`: its rows from the renderer's top, then blank rows. */
function expectedScreen(doc: string[], top: number, height: number): string[] {
  return Array.from({ length: height }, (_, i) => (doc[top + i] ?? "").replace(/\x1b\[[0-9;]*m/g, "").trimEnd());
}

const rows = (n: number, prefix = "row"): string[] => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

describe("differential renderer", () => {
  it("draws the first frame from the top of the screen, each frame inside synchronized output", () => {
    const { vt, draw } = setup();
    const bytes = draw(["hello", "world"], { row: 1, col: 5 });
    expect(vt.lines().slice(0, 3)).toEqual(["hello", "world", ""]);
    expect(bytes).toContain("\x1b[?2026h");
    expect(bytes.endsWith("\x1b[?2026l")).toBe(true);
    expect([vt.row, vt.col]).toEqual([1, 5]);
    expect(vt.syncDepth).toBe(0);
  });

  it("writes nothing but the frame markers when nothing changed", () => {
    const { draw } = setup();
    draw(rows(5));
    const bytes = draw(rows(5));
    expect(bytes).toBe("\x1b[?2026h\x1b[?2026l");
  });

  it("rewrites only the changed row", () => {
    const { vt, draw } = setup();
    draw(rows(6));
    const next = rows(6);
    next[2] = "changed";
    const bytes = draw(next);
    expect(bytes).toContain("changed");
    for (const untouched of ["row 0", "row 1", "row 3", "row 4", "row 5"]) expect(bytes).not.toContain(untouched);
    expect(vt.lines().slice(0, 6)).toEqual(next);
  });

  it("appends only the new characters of a row that grew (the streaming fast path)", () => {
    const { vt, draw } = setup();
    draw(["header", "The answer is", "footer"]);
    const bytes = draw(["header", "The answer is forty-two", "footer"]);
    expect(bytes).toContain(" forty-two");
    expect(bytes).not.toContain("The answer");
    expect(bytes).not.toContain("\x1b[2K");
    expect(vt.lines().slice(0, 3)).toEqual(["header", "The answer is forty-two", "footer"]);
  });

  it("continues a coloured row in its colour", () => {
    const { vt, draw } = setup();
    draw(["\x1b[36mcyan\x1b[39m"]);
    const bytes = draw(["\x1b[36mcyan text\x1b[39m"]);
    expect(bytes).toContain("\x1b[36m text\x1b[39m");
    expect(vt.lines()[0]).toBe("cyan text");
  });

  it("counts OSC 8 hyperlink marks as no cells: an append after a link lands at the right column", () => {
    const { vt, draw } = setup();
    const link = "\x1b]8;;https://example.com/a/very/long/address\x1b\\site\x1b]8;;\x1b\\";
    draw([`see ${link}`]);
    const bytes = draw([`see ${link} now`]);
    expect(bytes).toContain("\x1b[9G now");
    expect(vt.lines()[0]).toBe("see site now");
    expect(vt.link).toBe("");
  });

  it("cuts a row with a link to the width by its text, closing the link it leaves open", () => {
    const { vt, draw } = setup(12, 4);
    draw([`ab \x1b]8;;https://example.com/x\x1b\\0123456789abcdef\x1b]8;;\x1b\\`]);
    expect(vt.lines()[0]).toBe("ab 012345678");
    expect(vt.links).toEqual(["https://example.com/x"]);
    expect(vt.link).toBe("");
  });

  it("continues an open link into appended text", () => {
    const { vt, draw } = setup();
    draw(["go \x1b]8;;https://example.com\x1b\\her"]);
    const bytes = draw(["go \x1b]8;;https://example.com\x1b\\here\x1b]8;;\x1b\\"]);
    expect(bytes).toContain("\x1b]8;;https://example.com\x1b\\e");
    expect(vt.lines()[0]).toBe("go here");
  });

  it("places appended text after wide characters at the right column", () => {
    const { vt, draw } = setup();
    draw(["中文 and 👍"]);
    draw(["中文 and 👍 ok"]);
    expect(vt.lines()[0]).toBe("中文 and 👍 ok");
  });

  it("re-draws a character a stream split in two (a surrogate pair, an emoji with a modifier)", () => {
    const { vt, draw } = setup();
    const thumbs = "👍🏽";
    draw([`a ${"🙂"[0]}`]);
    draw(["a 🙂 b"]);
    expect(vt.lines()[0]).toBe("a 🙂 b");
    draw([`x ${thumbs.slice(0, 2)}`]);
    draw([`x ${thumbs} y`]);
    expect(vt.lines()[0]).toBe(`x ${thumbs} y`);
  });

  it("opens a row for a streamed answer that wrapped by inserting a line, not by rewriting the editor and footer below", () => {
    const { vt, draw } = setup(40, 10);
    const live = ["────────", "editor text", "────────", "footer one", "footer two"];
    draw(["", "answer starts", ...live]);
    const bytes = draw(["", "answer starts and", "wraps here", ...live]);
    expect(bytes).toContain("\x1b[1L");
    expect(bytes).toContain("wraps here");
    for (const row of live) expect(bytes).not.toContain(row);
    expect(vt.lines().slice(0, 8)).toEqual(["", "answer starts and", "wraps here", ...live]);
  });

  it("closes rows that went away by deleting lines, keeping the rows below", () => {
    const { vt, draw } = setup(40, 10);
    draw(["a", "queued: one", "queued: two", "editor", "footer"]);
    const bytes = draw(["a", "editor", "footer"]);
    expect(bytes).toContain("\x1b[2M");
    expect(bytes).not.toContain("footer");
    expect(vt.lines().slice(0, 5)).toEqual(["a", "editor", "footer", "", ""]);
  });

  it("lets a tall document scroll into scrollback and keeps editing the rows still on screen", () => {
    const { vt, renderer, draw } = setup(40, 10);
    const doc = rows(30);
    draw(doc);
    expect(vt.scrollback).toEqual(doc.slice(0, 20));
    expect(vt.lines()).toEqual(doc.slice(20));
    doc[29] = "last row edited";
    const bytes = draw([...doc]);
    expect(bytes).not.toContain("row 2");
    expect(renderer.stats.fullRedraws).toBe(0);
    expect(vt.lines()).toEqual(doc.slice(20));
  });

  it("redraws everything once when a row in scrollback changed, clearing the stale scrollback", () => {
    const { vt, renderer, draw } = setup(40, 10);
    const doc = rows(30);
    draw(doc);
    doc[3] = "edited far above";
    draw([...doc]);
    expect(renderer.stats.fullRedraws).toBe(1);
    expect(vt.allLines().filter((l) => l !== "")).toEqual(doc);
  });

  it("clears rows a shorter frame no longer has", () => {
    const { vt, draw } = setup();
    draw(rows(5));
    draw(rows(3));
    expect(vt.lines().slice(0, 5)).toEqual(["row 0", "row 1", "row 2", "", ""]);
  });

  it("redraws in full at a new width, with no row wider than the terminal", () => {
    const { vt, renderer, draw } = setup(40, 10);
    draw(["x".repeat(40), "short"]);
    vt.resize(20, 10);
    draw(["y".repeat(30), "short"]);
    expect(renderer.stats.fullRedraws).toBe(1);
    expect(vt.allLines().filter((l) => l !== "")).toEqual(["y".repeat(20), "short"]);
  });

  it("keeps the terminal equal to the document through random edits, growth, shrinking and wide characters", () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const words = ["alpha", "中文", "👍", "beta", "é", "\x1b[1mbold\x1b[22m", "gamma delta", "🙂🙂"];
    const { vt, renderer, draw } = setup(30, 8);
    let doc = rows(3);
    for (let step = 0; step < 400; step++) {
      const next = [...doc];
      const op = random(6);
      const at = random(next.length);
      if (op === 0) next.push(words[random(words.length)]!);
      else if (op === 1 && next.length > 1) next.splice(at, 1);
      else if (op === 2) next[at] = `${next[at]!} ${words[random(words.length)]!}`.slice(0, 24);
      else if (op === 3) next[next.length - 1] = `${next[next.length - 1]!}${words[random(words.length)]!}`.slice(-20);
      else if (op === 4) next.splice(at, 0, `inserted ${step}`);
      else next[at] = `replaced ${step}`;
      doc = next;
      draw(doc, { row: doc.length - 1, col: 0 });
      expect(vt.lines(), `step ${step}`).toEqual(expectedScreen(doc, renderer.visibleTop, 8));
    }
  });
});
