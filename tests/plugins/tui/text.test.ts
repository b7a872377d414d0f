import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { renderEntry } from "../../../plugins/ui/tui/entries.js";
import { renderMarkdown, splitBlocks } from "../../../plugins/ui/tui/markdown.js";
import { initialViewState } from "../../../plugins/ui/tui/state.js";
import { hardWrap, padTo, truncate, wrapText } from "../../../plugins/ui/tui/text.js";
import { DARK_THEME, Theme } from "../../../plugins/ui/tui/theme.js";

const plain = (rows: string[]) => rows.map((r) => r.replace(/\x1b\[[0-9;:]*m/g, ""));
const theme = new Theme(DARK_THEME);

describe("text shaping", () => {
  it("word-wraps styled, wide and emoji text into rows that never exceed the width", () => {
    const text = "plain words \x1b[1mbold 中文字符 more\x1b[22m 👍🏽 emoji 日本語のテキストがここにある end";
    for (const width of [5, 9, 12, 20]) {
      const rows = wrapText(text, width);
      for (const row of rows) expect(stringWidth(row), JSON.stringify(row)).toBeLessThanOrEqual(width);
      expect(plain(rows).join("").replace(/\s+/g, "")).toBe(plain([text])[0]!.replace(/\s+/g, ""));
    }
  });

  it("hard-wraps code and the editor at exact cell counts, never splitting a wide character", () => {
    expect(hardWrap("abcdefgh", 3)).toEqual(["abc", "def", "gh"]);
    expect(hardWrap("a中文b", 3)).toEqual(["a中", "文b"]);
  });

  it("pads and truncates to exact widths", () => {
    expect(stringWidth(padTo("中文", 7))).toBe(7);
    expect(truncate("中文中文", 5)).toBe("中文…");
  });
});

describe("markdown", () => {
  it("keeps code blocks distinct (fence rows, indented, coloured) and is width-safe", () => {
    const md =
      "# Title\n\nSome *text* with `code`.\n\n```ts\nconst answer: number = 42; // the answer\n```\n\n- item one that is long enough to wrap around\n- item two";
    const rows = renderMarkdown(md, 24, theme);
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(24);
    const text = plain(rows);
    expect(text).toContain("```ts");
    expect(text.some((r) => r.startsWith("  const answer"))).toBe(true);
    expect(rows.find((r) => r.includes("const"))).toContain(
      theme.fg("syntaxKeyword", "x").slice(0, -"x\x1b[39m".length),
    );
    expect(text).toContain("• item one that is long");
    expect(text).toContain("  enough to wrap around");
  });

  it("joins a list item's indented lines into one text wrapped under its marker", () => {
    const md = "- first item, written\n  over two source lines\n- second\nA paragraph after.";
    expect(plain(renderMarkdown(md, 30, theme))).toEqual([
      "• first item, written over two",
      "  source lines",
      "• second",
      "A paragraph after.",
    ]);
  });

  it("cuts blocks at blank lines but keeps a fenced block (even unfinished) whole", () => {
    expect(splitBlocks("a\nb\n\nc\n```\nx\n\ny")).toEqual(["a\nb", "c", "```\nx\n\ny"]);
  });
});

describe("transcript entries", () => {
  it("render tool calls with the tail of their output and an edit's diff, every row at the width", () => {
    const base = {
      id: 1,
      rev: 0,
      kind: "tool" as const,
      name: "bash",
      args: { command: "seq 20" },
      status: "done" as const,
      text: Array.from({ length: 20 }, (_, i) => String(i + 1)).join("\n"),
    };
    const style = { width: 50, theme, thinkingExpanded: false, toolsExpanded: false };
    const rows = plain(renderEntry(base, style));
    expect(rows.join("\n")).toContain("$ seq 20");
    expect(rows.join("\n")).toContain("12 earlier lines (ctrl+o to expand)");
    expect(rows.join("\n")).toContain(" 20");
    expect(rows.join("\n")).not.toMatch(/^ 1\s*$/m);
    expect(renderEntry(base, style)[0]).toBe("");
    for (const row of renderEntry(base, style).slice(1)) expect(stringWidth(row)).toBe(50);
    const edit = renderEntry(
      { ...base, name: "edit", args: { path: "a.ts" }, diff: "-1 old\n+1 new", text: "ok" },
      style,
    );
    expect(edit.find((r) => r.includes("+1 new"))).toContain(
      theme.fg("toolDiffAdded", "x").slice(0, -"x\x1b[39m".length),
    );
    expect(initialViewState().entries).toEqual([]);
  });
});
