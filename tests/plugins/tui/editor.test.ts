import { describe, expect, it } from "vitest";
import * as editor from "../../../plugins/ui/tui/editor.js";
import { initialViewState, type ViewState } from "../../../plugins/ui/tui/state.js";

const withText = (text: string, cursor = text.length): ViewState => {
  const s = initialViewState();
  s.editor = { text, cursor };
  return s;
};

describe("editor", () => {
  it("steps and deletes over whole graphemes (emoji with a modifier, CJK)", () => {
    const s = withText("a👍🏽中");
    editor.left(s);
    expect(s.editor.cursor).toBe("a👍🏽".length);
    editor.backspace(s);
    expect(s.editor.text).toBe("a中");
    editor.right(s);
    editor.backspace(s);
    expect(s.editor).toEqual({ text: "a", cursor: 1 });
  });

  it("Ctrl+K kills to the end of the line; consecutive kills join; Ctrl+Y yanks them back", () => {
    const s = withText("one two three", 4);
    editor.killToLineEnd(s);
    expect(s.editor.text).toBe("one ");
    editor.killWordBackward(s);
    expect(s.editor.text).toBe("");
    expect(s.killRing).toEqual(["one two three"]);
    editor.insert(s, "x");
    editor.yank(s);
    expect(s.editor.text).toBe("xone two three");
  });

  it("Alt+Y after a yank rotates to the older kill", () => {
    const s = withText("first second");
    editor.killWordBackward(s);
    editor.moveTo(s, 0);
    editor.killToLineEnd(s);
    expect(s.killRing).toEqual(["second", "first "]);
    editor.yank(s);
    expect(s.editor.text).toBe("first ");
    editor.yankPop(s);
    expect(s.editor.text).toBe("second");
  });

  it("undo takes back a typed word in one step and a paste in one step", () => {
    const s = withText("");
    for (const c of "hello") editor.insert(s, c);
    editor.insert(s, " ");
    for (const c of "world") editor.insert(s, c);
    editor.undo(s);
    expect(s.editor.text).toBe("hello ");
    editor.insert(s, "pasted text\nwith lines");
    editor.undo(s);
    expect(s.editor.text).toBe("hello ");
    editor.undo(s);
    editor.undo(s);
    expect(s.editor.text).toBe("");
  });

  it("Up/Down move between lines keeping the column, and browse history at the edges", () => {
    const s = withText("");
    editor.pushHistory(s, "older");
    editor.pushHistory(s, "newer");
    editor.insert(s, "draft");
    expect(editor.up(s)).toBe(false);
    editor.historyBack(s);
    expect(s.editor.text).toBe("newer");
    editor.historyBack(s);
    expect(s.editor.text).toBe("older");
    editor.historyForward(s);
    editor.historyForward(s);
    expect(s.editor.text).toBe("draft");

    const m = withText("abcdef\nxy\n123456", 4);
    expect(editor.down(m)).toBe(true);
    expect(m.editor.cursor).toBe("abcdef\nxy".length);
    expect(editor.down(m)).toBe(true);
    expect(m.editor.cursor).toBe("abcdef\nxy\n12".length);
  });

  it("lays the text out in rows that fit the width, the cursor counted in cells", () => {
    const layout = editor.layoutEditor({ text: "中文中文中文\nab", cursor: "中文中文中".length }, 7);
    expect(layout.rows).toEqual(["中文中", "文中文", "ab"]);
    expect([layout.cursorRow, layout.cursorCol]).toEqual([1, 4]);
  });
});
