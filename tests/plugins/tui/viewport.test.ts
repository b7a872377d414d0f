import { describe, expect, it } from "vitest";
import { initialMatch, findMatches, SearchCache, stepMatch } from "../../../plugins/ui/tui/transcript-search.js";
import {
  paintSpans,
  promptJump,
  revealRow,
  scrollBy,
  scrollbarShown,
  scrollbarThumb,
  scrollTo,
  sliceColumns,
  viewportTop,
  withLastCell,
} from "../../../plugins/ui/tui/viewport.js";

const plain = (text: string): string => text.replace(/\x1b\[[0-9;:]*m/g, "");

describe("fullscreen viewport", () => {
  it("follows the transcript's end until scrolled, and follows again when scrolled back to the end", () => {
    expect(viewportTop(null, 100, 20)).toBe(80);
    expect(viewportTop(null, 10, 20)).toBe(0);
    expect(viewportTop(95, 100, 20)).toBe(80);
    const up = scrollBy(null, -20, 100, 20);
    expect(up).toBe(60);
    expect(scrollBy(up, -100, 100, 20)).toBe(0);
    expect(scrollBy(up, 19, 100, 20)).toBe(79);
    expect(scrollBy(up, 20, 100, 20)).toBeNull();
    expect(scrollTo(500, 100, 20)).toBeNull();
    expect(scrollTo(-3, 100, 20)).toBe(0);
  });

  it("jumps between prompts and reveals a row a third down the viewport", () => {
    const prompts = [3, 40, 90];
    expect(promptJump(prompts, 50, -1)).toBe(40);
    expect(promptJump(prompts, 40, -1)).toBe(3);
    expect(promptJump(prompts, 3, -1)).toBeUndefined();
    expect(promptJump(prompts, 40, 1)).toBe(90);
    expect(promptJump(prompts, 90, 1)).toBeUndefined();
    expect(revealRow(10, 15, 20)).toBe(10);
    expect(revealRow(10, 60, 21)).toBe(53);
  });

  it("sizes and places the scrollbar thumb, and shows the bar as the setting says", () => {
    expect(scrollbarThumb(0, 10, 20)).toEqual({ start: 0, size: 20 });
    expect(scrollbarThumb(0, 200, 20)).toEqual({ start: 0, size: 2 });
    expect(scrollbarThumb(180, 200, 20)).toEqual({ start: 18, size: 2 });
    expect(scrollbarThumb(90, 200, 20).start).toBe(9);
    expect(scrollbarShown("auto", null, 200, 20)).toBe(false);
    expect(scrollbarShown("auto", 10, 200, 20)).toBe(true);
    expect(scrollbarShown("auto", 0, 10, 20)).toBe(false);
    expect(scrollbarShown("always", null, 5, 20)).toBe(true);
    expect(scrollbarShown("hidden", 10, 200, 20)).toBe(false);
    expect(plain(withLastCell("abc", 6, "│"))).toBe("abc  │");
    expect(plain(withLastCell("abcdef", 6, "│"))).toBe("abcde│");
  });

  it("paints spans by cell, wide characters included, and slices plain text by column", () => {
    const row = "\x1b[1mhi\x1b[0m 中文 there";
    const painted = paintSpans(row, [{ col: 3, width: 4, style: "\x1b[7m" }]);
    expect(plain(painted)).toBe("hi 中文 there");
    expect(painted).toContain("\x1b[7m中文\x1b[0m");
    expect(paintSpans(row, [])).toBe(row);
    expect(sliceColumns(row, 3, 7)).toBe("中文");
    expect(sliceColumns(row, 0, 2)).toBe("hi");
    expect(sliceColumns(row, 8, 100)).toBe("there");
  });
});

describe("transcript search", () => {
  const rows = ["\x1b[1m Alpha beta\x1b[0m", " gamma", " beta 中文 beta", ""];

  const at = (row: number, col: number, width: number) => ({ row, segments: [{ row, col, width }] });

  it("finds every match without case, with its row and cells", () => {
    expect(findMatches(rows, "BETA")).toEqual([at(0, 7, 4), at(2, 1, 4), at(2, 11, 4)]);
    expect(findMatches(rows, "中文")).toEqual([at(2, 6, 4)]);
    expect(findMatches(rows, "   ")).toEqual([]);
    expect(findMatches(rows, "delta")).toEqual([]);
  });

  it("finds a phrase wrapped over a row's end, as pi's search does, one segment per row", () => {
    expect(findMatches(rows, "beta  gamma")).toEqual([
      {
        row: 0,
        segments: [
          { row: 0, col: 7, width: 4 },
          { row: 1, col: 1, width: 5 },
        ],
      },
    ]);
    expect(findMatches(rows, "alpha beta")).toEqual([at(0, 1, 10)]);
    // Words a space apart on one row make one segment, the space painted too.
    expect(findMatches(rows, "中文 be")).toEqual([at(2, 6, 7)]);
  });

  it("selects the match nearest the viewport's bottom and steps through matches with wrap-around", () => {
    const matches = findMatches(rows, "beta");
    expect(initialMatch(matches, 2)).toBe(0);
    expect(initialMatch(matches, 4)).toBe(2);
    expect(initialMatch(matches, 0)).toBe(0);
    expect(initialMatch([], 4)).toBe(-1);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });

  it("recomputes matches only when the rows or the query change", () => {
    const cache = new SearchCache();
    const first = cache.get(rows, "beta");
    expect(cache.get([...rows], "beta")).toBe(first);
    expect(cache.get([...rows, " beta"], "beta")).toHaveLength(4);
    expect(cache.get(rows, "gamma")).toEqual([at(1, 1, 5)]);
  });
});
