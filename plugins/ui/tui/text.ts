/**
 * Measuring and shaping text for terminal rows: cell widths (wide CJK and emoji take two cells, SGR codes
 * none), word wrapping that carries colours over line breaks, hard wrapping for code and the editor, and
 * padding/truncation to an exact width. Every row the view renders goes through these, so no row is ever
 * wider than the terminal.
 */
import { stripImageSequences } from "pi-host";
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const SGR = /\x1b\[[0-9;:]*m|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)/g;
const segmenter = new Intl.Segmenter();

/** Terminal cells `text` covers; SGR codes and inline image sequences count zero. */
export function cellWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  return stringWidth(stripImageSequences(text));
}

/** `text` without SGR codes and OSC 8 hyperlink marks (a cut row keeps the link text, not the link). */
export function stripSgr(text: string): string {
  return text.replace(SGR, "");
}

/** Grapheme clusters of plain text (what the cursor steps over). */
export function graphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.split("");
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Tabs become spaces and control characters go, so every cell is accounted for. */
export function sanitize(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\t/g, "    ")
    .replace(/\r/g, "")
    .replace(/[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]/g, "");
}

/** Word-wraps (possibly styled) text to `width` cells; words longer than a row are split. */
export function wrapText(text: string, width: number): string[] {
  if (width <= 0) return [""];
  const rows: string[] = [];
  for (const line of text.split("\n")) {
    if (cellWidth(line) <= width) {
      rows.push(line);
      continue;
    }
    for (const row of wrapAnsi(line, width, { hard: true, trim: true }).split("\n")) rows.push(row);
  }
  return rows;
}

/** Splits plain text into rows of exactly `width` cells at most, breaking anywhere (code, the editor). */
export function hardWrap(text: string, width: number): string[] {
  if (width <= 0) return [""];
  if (PRINTABLE_ASCII.test(text)) {
    if (text.length <= width) return [text];
    const rows: string[] = [];
    for (let i = 0; i < text.length; i += width) rows.push(text.slice(i, i + width));
    return rows;
  }
  const rows: string[] = [];
  let row = "";
  let used = 0;
  for (const g of graphemes(text)) {
    const w = cellWidth(g);
    if (used + w > width && row !== "") {
      rows.push(row);
      row = "";
      used = 0;
    }
    row += g;
    used += w;
  }
  rows.push(row);
  return rows;
}

/** Pads (possibly styled) `text` with spaces to exactly `width` cells, truncating if it is wider. */
export function padTo(text: string, width: number): string {
  const w = cellWidth(text);
  if (w === width) return text;
  if (w < width) return text + " ".repeat(width - w);
  return truncate(text, width);
}

/** Cuts plain or styled text to at most `width` cells, ending with "…" when something was cut. */
export function truncate(text: string, width: number, ellipsis = "…"): string {
  if (cellWidth(text) <= width) return text;
  const plain = stripSgr(text);
  const room = Math.max(0, width - cellWidth(ellipsis));
  let out = "";
  let used = 0;
  for (const g of graphemes(plain)) {
    const w = cellWidth(g);
    if (used + w > room) break;
    out += g;
    used += w;
  }
  return out + (width >= cellWidth(ellipsis) ? ellipsis : "");
}

/** The first line of `text`, whitespace collapsed, for one-row summaries. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
