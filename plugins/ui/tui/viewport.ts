/**
 * The fullscreen transcript viewport as plain functions of the numbers involved: where it is scrolled
 * (following the end, or held at a row), paging and jumping, the scrollbar's thumb, and painting columns
 * of a row (a search match, a selection) — so the arithmetic is tested without a terminal.
 */
import { cellWidth, graphemes, padTo, stripSgr, truncate } from "./text.js";

/** The first transcript row shown: the end when following (`scrollTop` null), else `scrollTop` kept in range. */
export function viewportTop(scrollTop: number | null, total: number, rows: number): number {
  const maxTop = Math.max(0, total - rows);
  return scrollTop === null ? maxTop : Math.max(0, Math.min(scrollTop, maxTop));
}

/** The viewport moved to `top`: reaching the end (or past it) follows new output again. */
export function scrollTo(top: number, total: number, rows: number): number | null {
  const maxTop = Math.max(0, total - rows);
  return top >= maxTop ? null : Math.max(0, top);
}

/** The viewport moved by `delta` rows (negative: up). */
export function scrollBy(scrollTop: number | null, delta: number, total: number, rows: number): number | null {
  return scrollTo(viewportTop(scrollTop, total, rows) + delta, total, rows);
}

/** The top row after jumping to the previous (`-1`) or next (`1`) prompt row from `top`. */
export function promptJump(prompts: readonly number[], top: number, direction: -1 | 1): number | undefined {
  if (direction < 0) {
    for (let i = prompts.length - 1; i >= 0; i--) if (prompts[i]! < top) return prompts[i];
    return undefined;
  }
  for (const row of prompts) if (row > top) return row;
  return undefined;
}

/** The top row that shows `row`: unchanged when it is visible, else with `row` a third down the viewport. */
export function revealRow(top: number, row: number, rows: number): number {
  if (row >= top && row < top + rows) return top;
  return Math.max(0, row - Math.floor(rows / 3));
}

/** Where the thumb is on a track of `rows` cells, for `total` transcript rows with `top` first. */
export function scrollbarThumb(top: number, total: number, rows: number): { start: number; size: number } {
  if (total <= rows) return { start: 0, size: rows };
  const size = Math.max(Math.min(2, rows), Math.min(rows, Math.round((rows * rows) / total)));
  const maxTop = total - rows;
  const start = Math.round((Math.min(top, maxTop) / maxTop) * (rows - size));
  return { start, size };
}

/** The scrollbar is shown: always, never, or ("auto") while the transcript is scrolled away from its end. */
export function scrollbarShown(
  mode: "auto" | "always" | "hidden",
  scrollTop: number | null,
  total: number,
  rows: number,
): boolean {
  if (mode === "hidden") return false;
  if (mode === "always") return true;
  return scrollTop !== null && total > rows;
}

/** `row` with its last cell replaced by `cell` (the scrollbar), the rest kept to `width - 1` cells. */
export function withLastCell(row: string, width: number, cell: string): string {
  const body = cellWidth(row) > width - 1 ? truncate(row, width - 1, "") : row;
  return `${padTo(body, width - 1)}${cell}`;
}

/** A span of cells to paint: columns [col, col + width) in `style` (an SGR prefix). */
export interface CellSpan {
  col: number;
  width: number;
  style: string;
}

/**
 * `row` with `spans` painted. A painted row is rebuilt from its plain text (its own colours go), so a
 * match or selection reads the same on every theme.
 */
export function paintSpans(row: string, spans: readonly CellSpan[]): string {
  if (spans.length === 0) return row;
  let out = "";
  let col = 0;
  let open: CellSpan | undefined;
  for (const g of graphemes(stripSgr(row))) {
    const span = spans.find((s) => col >= s.col && col < s.col + s.width);
    if (span !== open) {
      out += open !== undefined ? "\x1b[0m" : "";
      out += span !== undefined ? span.style : "";
      open = span;
    }
    out += g;
    col += cellWidth(g);
  }
  return open !== undefined ? `${out}\x1b[0m` : out;
}

/** The plain text of `row` in columns [from, to) (a wide character counts where it starts). */
export function sliceColumns(row: string, from: number, to: number): string {
  let out = "";
  let col = 0;
  for (const g of graphemes(stripSgr(row))) {
    if (col >= to) break;
    if (col >= from) out += g;
    col += cellWidth(g);
  }
  return out;
}
