/** Overlay placement as pi-tui's OverlayOptions describe it, and drawing over styled rows. */
import { describe, expect, it } from "vitest";
import { composite, layoutOverlay, placeOverlay, sliceColumns } from "../../../plugins/ui/tui/overlays.js";
import { cleanRows, CURSOR_MARKER } from "../../../plugins/ui/tui/surfaces.js";
import { cellWidth, stripSgr } from "../../../plugins/ui/tui/text.js";

const place = (options: Parameters<typeof layoutOverlay>[0], height: number, cols = 80, rows = 24) => {
  const box = layoutOverlay(options, cols, rows);
  return box === undefined ? undefined : placeOverlay(box, height, options, cols, rows);
};

describe("overlay layout", () => {
  it("centred by default, 80 columns at most", () => {
    expect(place({}, 4, 100, 30)).toEqual({ row: 13, col: 10, width: 80, maxHeight: 30 });
  });

  it("anchors, percentages, margins and offsets", () => {
    expect(place({ anchor: "top-right", width: 20, margin: 1 }, 3)).toMatchObject({ row: 1, col: 59, width: 20 });
    expect(place({ anchor: "bottom-left", width: "50%" }, 5)).toMatchObject({ row: 19, col: 0, width: 40 });
    expect(place({ anchor: "bottom-center", width: 10, offsetY: -2 }, 2)).toMatchObject({ row: 20, col: 35 });
    expect(place({ row: 2, col: 3, width: 10 }, 2)).toMatchObject({ row: 2, col: 3 });
    expect(place({ row: "50%", col: "100%", width: 10 }, 4)).toMatchObject({ row: 10, col: 70 });
    // Offsets never push a box off the screen.
    expect(place({ anchor: "top-left", width: 10, offsetX: -5, offsetY: -5 }, 2)).toMatchObject({ row: 0, col: 0 });
  });

  it("minWidth, maxHeight and the screen bound the box; visible() can hide it", () => {
    expect(place({ width: 5, minWidth: 12 }, 1)).toMatchObject({ width: 12 });
    expect(place({ width: 500 }, 1)).toMatchObject({ width: 80 });
    expect(layoutOverlay({ maxHeight: "25%" }, 80, 24)).toMatchObject({ maxHeight: 6 });
    expect(layoutOverlay({ visible: (w) => w >= 100 }, 80, 24)).toBeUndefined();
    expect(layoutOverlay({ visible: (w) => w >= 100 }, 120, 24)).toBeDefined();
  });
});

describe("drawing", () => {
  it("slices styled rows by cells, keeping the colour codes", () => {
    const row = "\x1b[31mred\x1b[39m plain 漢字";
    expect(stripSgr(sliceColumns(row, 1, 6))).toBe("ed pl");
    expect(sliceColumns(row, 0, 3)).toContain("\x1b[31m");
    // A wide character cut in half becomes a space.
    expect(stripSgr(sliceColumns(row, 11, 14))).toBe(" 字");
    expect(cellWidth(sliceColumns("ab", 0, 6))).toBe(6);
  });

  it("writes the overlay over the rows at its box, keeping what is left and right of it", () => {
    const screen = ["0123456789", "abcdefghij", "ABCDEFGHIJ"];
    composite(screen, ["XY", "ZW", "never"], { row: 1, col: 3, width: 2, maxHeight: 2 }, 10);
    expect(screen.map(stripSgr)).toEqual(["0123456789", "abcXYfghij", "ABCZWFGHIJ"]);
  });

  it("rows from plugins lose cursor and other control sequences; the cursor marker gives the cursor", () => {
    const { rows, cursor } = cleanRows(["title", `> ab${CURSOR_MARKER}c\x1b[2J`, "x".repeat(20)], 10);
    expect(rows.map(stripSgr)).toEqual(["title", "> abc", "xxxxxxxxx…"]);
    expect(cursor).toEqual({ row: 1, col: 4 });
  });
});
