/**
 * Overlays over the screen, as pi-tui places them: a width (cells or a percentage, at least `minWidth`,
 * 80 by default) inside the margins, an anchor (centre by default) or an absolute row and column, offsets,
 * a height capped by `maxHeight`, and a `visible` test on the terminal's size. The overlay's rows are
 * written over the screen's rows at that place, the cells left and right of it kept.
 */
import type { TuiOverlayOptions, TuiSizeValue } from "pi-host";
import { cellWidth, graphemes, padTo } from "./text.js";

/** Where an overlay goes on a screen of `cols` × `rows`. */
export interface OverlayBox {
  row: number;
  col: number;
  width: number;
  /** Rows at most. */
  maxHeight: number;
}

function size(value: TuiSizeValue | undefined, total: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") return Math.floor(value);
  const percent = Number.parseFloat(value);
  return Number.isFinite(percent) ? Math.floor((total * percent) / 100) : undefined;
}

function margins(margin: TuiOverlayOptions["margin"]) {
  const m = typeof margin === "number" ? { top: margin, right: margin, bottom: margin, left: margin } : (margin ?? {});
  const clean = (n: number | undefined) => Math.max(0, Math.floor(n ?? 0));
  return { top: clean(m.top), right: clean(m.right), bottom: clean(m.bottom), left: clean(m.left) };
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

/** The overlay's box, or undefined when `visible` says no (or the screen has no room). */
export function layoutOverlay(options: TuiOverlayOptions, cols: number, rows: number): OverlayBox | undefined {
  if (options.visible !== undefined && !options.visible(cols, rows)) return undefined;
  const m = margins(options.margin);
  const availWidth = cols - m.left - m.right;
  const availHeight = rows - m.top - m.bottom;
  if (availWidth < 1 || availHeight < 1) return undefined;
  let width = size(options.width, cols) ?? Math.min(80, availWidth);
  width = clamp(Math.max(width, options.minWidth ?? 0), 1, availWidth);
  const maxHeight = clamp(size(options.maxHeight, rows) ?? availHeight, 1, availHeight);
  return { row: 0, col: 0, width, maxHeight };
}

/** Places a box of `height` rows: the absolute row/column or the anchor, then the offsets, inside the margins. */
export function placeOverlay(
  box: OverlayBox,
  height: number,
  options: TuiOverlayOptions,
  cols: number,
  rows: number,
): OverlayBox {
  const m = margins(options.margin);
  const anchor = options.anchor ?? "center";
  const freeRows = rows - m.top - m.bottom - height;
  const freeCols = cols - m.left - m.right - box.width;
  const vertical = anchor.startsWith("top") ? 0 : anchor.startsWith("bottom") ? freeRows : Math.floor(freeRows / 2);
  const horizontal =
    anchor.endsWith("left") || anchor === "left-center"
      ? 0
      : anchor.endsWith("right") || anchor === "right-center"
        ? freeCols
        : Math.floor(freeCols / 2);
  const absolute = (value: TuiSizeValue | undefined, free: number): number | undefined =>
    value === undefined
      ? undefined
      : typeof value === "string"
        ? Math.floor((free * Number.parseFloat(value)) / 100)
        : value;
  const rowAt = absolute(options.row, freeRows);
  const colAt = absolute(options.col, freeCols);
  const row = (rowAt !== undefined ? rowAt : m.top + vertical) + (options.offsetY ?? 0);
  const col = (colAt !== undefined ? colAt : m.left + horizontal) + (options.offsetX ?? 0);
  return {
    ...box,
    row: clamp(row, m.top, Math.max(m.top, rows - m.bottom - height)),
    col: clamp(col, m.left, Math.max(m.left, cols - m.right - box.width)),
  };
}

const TOKEN = /\x1b\[[0-9;:]*m|[^\x1b]+|\x1b/g;

/** The cells [start, end) of a styled row; colour codes are all kept, so styles around the cut carry on. */
export function sliceColumns(text: string, start: number, end: number): string {
  let out = "";
  let col = 0;
  for (const token of text.match(TOKEN) ?? []) {
    if (token.startsWith("\x1b")) {
      out += token;
      continue;
    }
    for (const g of graphemes(token)) {
      const w = cellWidth(g);
      if (col >= start && col + w <= end) out += g;
      else if (col < end && col + w > start)
        out += " ".repeat(Math.max(0, Math.min(end, col + w) - Math.max(start, col)));
      col += w;
    }
  }
  return col < end && start < end ? out + " ".repeat(Math.max(0, end - Math.max(col, start))) : out;
}

/** Writes `overlay` (rows of at most `box.width` cells) over `screen` at the box. */
export function composite(screen: string[], overlay: readonly string[], box: OverlayBox, cols: number): void {
  for (let i = 0; i < overlay.length && i < box.maxHeight; i++) {
    const r = box.row + i;
    if (r < 0 || r >= screen.length) continue;
    const base = screen[r] ?? "";
    const left = sliceColumns(base, 0, box.col);
    const right = sliceColumns(base, box.col + box.width, cols);
    screen[r] = `${left}\x1b[0m${padTo(overlay[i] ?? "", box.width)}\x1b[0m${right}`;
  }
}
