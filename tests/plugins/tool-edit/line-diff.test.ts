import { describe, expect, it } from "vitest";
import { foldForMatch, originalRange } from "../../../kit/tools/edit/fuzzy-text.js";
import { renderLineDiff } from "../../../kit/tools/edit/line-diff.js";

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `l${i + 1}`);

describe("edit diff (pi's numbered layout)", () => {
  it("shows 4 context lines around a change, '...' for skipped runs, numbers padded to one width", () => {
    const before = numbered(12);
    const after = [...before];
    after[5] = "L6";
    const { diff, firstChangedLine } = renderLineDiff(before.join("\n"), after.join("\n"));
    expect(diff.split("\n")).toEqual([
      "    ...",
      "  2 l2",
      "  3 l3",
      "  4 l4",
      "  5 l5",
      "- 6 l6",
      "+ 6 L6",
      "  7 l7",
      "  8 l8",
      "  9 l9",
      " 10 l10",
      "    ...",
    ]);
    expect(firstChangedLine).toBe(6);
  });

  it("between two changes shows 4 lines after the first and 4 before the second", () => {
    const before = numbered(20);
    const after = [...before];
    after[1] = "L2";
    after.splice(15, 1);
    const { diff, firstChangedLine } = renderLineDiff(before.join("\n"), after.join("\n"));
    expect(diff.split("\n")).toEqual([
      "  1 l1",
      "- 2 l2",
      "+ 2 L2",
      "  3 l3",
      "  4 l4",
      "  5 l5",
      "  6 l6",
      "    ...",
      " 12 l12",
      " 13 l13",
      " 14 l14",
      " 15 l15",
      "-16 l16",
      " 17 l17",
      " 18 l18",
      " 19 l19",
      " 20 l20",
    ]);
    expect(firstChangedLine).toBe(2);
  });

  it("numbers added lines in the new file and removed lines in the old one", () => {
    const { diff } = renderLineDiff("a\nb\nc\n", "a\nx\ny\nc\n");
    expect(diff).toBe(" 1 a\n-2 b\n+2 x\n+3 y\n 3 c");
  });

  it("with unlimited context, the diff rebuilds both texts (randomized)", () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const before = Array.from({ length: 1 + random(30) }, () => `w${random(5)}`);
      const after = [...before];
      for (let change = 0; change < 1 + random(5); change++) {
        const at = random(after.length + 1);
        const kind = random(3);
        if (kind === 0) after.splice(at, 0, `n${random(5)}`);
        else if (kind === 1 && after.length > 1) after.splice(at, 1);
        else after[at] = `c${random(5)}`;
      }
      const { diff } = renderLineDiff(before.join("\n"), after.join("\n"), 1_000_000);
      const rows = diff === "" ? [] : diff.split("\n");
      const side = (marks: string) =>
        rows.filter((row) => marks.includes(row[0])).map((row) => row.replace(/^[ +-]\s*\d+ /, ""));
      expect(side(" -")).toEqual(before);
      expect(side(" +")).toEqual(after);
    }
  });

  it("stays fast and complete when a large file is rewritten entirely", () => {
    const before = Array.from({ length: 6_000 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 6_000 }, (_, i) => `new ${i}`).join("\n");
    const { diff } = renderLineDiff(before, after);
    const rows = diff.split("\n");
    expect(rows.filter((row) => row.startsWith("-"))).toHaveLength(6_000);
    expect(rows.filter((row) => row.startsWith("+"))).toHaveLength(6_000);
  });
});

describe("edit folding (the forgiving match)", () => {
  it("folds quotes, dashes, special spaces and trailing whitespace, remembering original positions", () => {
    const original = "say “hi”—now  \nx\u00A0y";
    const folded = foldForMatch(original);
    expect(folded.text).toBe('say "hi"-now\nx y');
    const start = folded.text.indexOf('"hi"-now');
    expect(originalRange(folded, original, start, '"hi"-now'.length)).toEqual({ start: 4, end: 14 });
    expect(original.slice(4, 14)).toBe("“hi”—now  ");
  });

  it("folds compatibility forms (NFKC) while mapping back to the whole original character", () => {
    const original = "ﬁle ①";
    const folded = foldForMatch(original);
    expect(folded.text).toBe("file 1");
    expect(originalRange(folded, original, 0, 4)).toEqual({ start: 0, end: 3 });
  });
});
