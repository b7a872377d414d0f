/**
 * Fullscreen mode's screen and input: the rendered document split into the transcript (shown through a
 * viewport with a scrollbar, search matches and the mouse selection painted) and the live area pinned to
 * the screen's bottom, with the search box between them; and the keys and mouse reports that scroll,
 * search and select. What it remembers is in the view state's `fullscreen` part.
 */
import type { KeyOutcome, TuiFrame, TuiKey, TuiMouse } from "pi-host";
import type { FullscreenState, TranscriptPoint } from "./fullscreen-state.js";
import { cellWidth, padTo, truncate } from "./text.js";
import { initialMatch, type SearchCache, type SearchMatch, stepMatch } from "./transcript-search.js";
import {
  type CellSpan,
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
} from "./viewport.js";

const MATCH_STYLE = "\x1b[7m";
const CURRENT_MATCH_STYLE = "\x1b[30;43m";
const SELECTION_STYLE = "\x1b[7m";
const TRACK = "\x1b[90m│\x1b[39m";
const THUMB = "\x1b[37m┃\x1b[39m";
/** Lines per wheel event for `fullscreenWheelScrollLines: "auto"`; Alt moves five times as far. */
const AUTO_WHEEL_LINES = 3;

/** Where the last fullscreen frame put the transcript: what keys and mouse reports act on. */
export interface FullscreenLayout {
  /** The rendered transcript rows. */
  transcript: string[];
  /** First transcript row in the viewport, and the viewport's height in rows (it starts at screen row 0). */
  top: number;
  rows: number;
  width: number;
  /** Transcript rows where a user message starts (prompt jumps). */
  prompts: number[];
}

/** What the frame is built from: the whole document and where its transcript ends. */
export interface DocumentParts {
  lines: string[];
  transcriptEnd: number;
  cursor: TuiFrame["cursor"];
  prompts: number[];
}

/** Builds the fullscreen frame (exactly `height` rows) and the layout it used. */
export function composeFullscreen(
  doc: DocumentParts,
  width: number,
  height: number,
  fs: FullscreenState,
  search: SearchCache,
): { lines: string[]; cursor: TuiFrame["cursor"]; layout: FullscreenLayout } {
  const transcript = doc.lines.slice(0, doc.transcriptEnd);
  let live = doc.lines.slice(doc.transcriptEnd);
  let liveCursor = doc.cursor === null ? null : { row: doc.cursor.row - doc.transcriptEnd, col: doc.cursor.col };
  const matches = fs.search !== null ? search.get(transcript, fs.search.query) : [];
  const box = fs.search !== null ? searchBox(fs.search.query, fs.search.current, matches.length, width) : [];
  // The viewport keeps at least one row; a live area taller than the rest loses its top rows.
  const excess = live.length + box.length - (height - 1);
  if (excess > 0) {
    live = live.slice(excess);
    liveCursor =
      liveCursor !== null && liveCursor.row >= excess ? { row: liveCursor.row - excess, col: liveCursor.col } : null;
  }
  const rows = Math.max(1, height - live.length - box.length);
  const top = viewportTop(fs.scrollTop, transcript.length, rows);
  const bar = scrollbarShown(fs.scrollbar, fs.scrollTop, transcript.length, rows) && width > 1;
  const thumb = scrollbarThumb(top, transcript.length, rows);
  const current = fs.search !== null ? matches[fs.search.current] : undefined;
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const row = top + i;
    let text = transcript[row] ?? "";
    const spans = rowSpans(row, matches, current, fs.selection, width);
    if (spans.length > 0) text = paintSpans(text, spans);
    if (bar) text = withLastCell(text, width, i >= thumb.start && i < thumb.start + thumb.size ? THUMB : TRACK);
    out.push(text);
  }
  for (const row of box) out.push(row);
  let cursor: TuiFrame["cursor"] = null;
  if (fs.search !== null) cursor = { row: rows + 1, col: Math.min(width - 2, 2 + cellWidth(fs.search.query)) };
  else if (liveCursor !== null) cursor = { row: out.length + liveCursor.row, col: liveCursor.col };
  for (const row of live) out.push(row);
  return { lines: out, cursor, layout: { transcript, top, rows, width, prompts: doc.prompts } };
}

/** Painted cells of one transcript row: its search matches (the selected one stands out), the selection. */
function rowSpans(
  row: number,
  matches: readonly SearchMatch[],
  current: SearchMatch | undefined,
  selection: FullscreenState["selection"],
  width: number,
): CellSpan[] {
  const spans: CellSpan[] = [];
  for (const m of matches) {
    for (const seg of m.segments) {
      if (seg.row === row)
        spans.push({ col: seg.col, width: seg.width, style: m === current ? CURRENT_MATCH_STYLE : MATCH_STYLE });
    }
  }
  if (selection !== null) {
    const [start, end] = ordered(selection.anchor, selection.head);
    if (row >= start.row && row <= end.row && !(start.row === end.row && start.col === end.col)) {
      const from = row === start.row ? start.col : 0;
      const to = row === end.row ? end.col + 1 : width;
      spans.push({ col: from, width: Math.max(0, to - from), style: SELECTION_STYLE });
    }
  }
  return spans;
}

function ordered(a: TranscriptPoint, b: TranscriptPoint): [TranscriptPoint, TranscriptPoint] {
  return a.row < b.row || (a.row === b.row && a.col <= b.col) ? [a, b] : [b, a];
}

/** The search box: three rows, the query and the result count, and the keys that step through matches. */
export function searchBox(query: string, current: number, count: number, width: number): string[] {
  const inner = Math.max(0, width - 2);
  const result = query.trim() === "" ? "" : count === 0 ? "No matches" : `${current + 1}/${count}`;
  const resultText = result === "" ? "" : ` ${result} `;
  const input = query === "" ? "\x1b[2mFind in transcript\x1b[22m" : query;
  const field = padTo(truncate(` ${input}`, Math.max(0, inner - cellWidth(resultText))), inner - cellWidth(resultText));
  const buttons = " ↑ Shift+Enter · ↓ Enter ";
  const rule = Math.max(0, inner - cellWidth(buttons) - 1);
  const bottom = cellWidth(buttons) + 1 <= inner ? `${"─".repeat(rule)}${buttons}─` : "─".repeat(inner);
  return [`┌${"─".repeat(inner)}┐`, `│${field}\x1b[2m${resultText}\x1b[22m│`, `└${bottom}┘`];
}

/** What the key and mouse handlers need besides the state. */
export interface FullscreenInput {
  layout: FullscreenLayout;
  search: SearchCache;
  /** Copies text to the clipboard (copy on select, Ctrl+X with a selection). */
  copy(text: string): void;
  /** A completion list or picker has the keys that scroll (they move its selection instead). */
  listFocused: boolean;
}

/**
 * A key in fullscreen mode: the search box's keys while it is open, then the transcript's scrolling and
 * search actions, which come before the editor's. Undefined when the key is not fullscreen's.
 */
export function fullscreenKey(
  fs: FullscreenState,
  key: TuiKey,
  is: (action: string) => boolean,
  input: FullscreenInput,
): KeyOutcome | undefined {
  const { layout } = input;
  const total = layout.transcript.length;
  if (key.name === "mouse") {
    if (key.mouse !== undefined) mouse(fs, key, key.mouse, input);
    return {};
  }
  if (fs.search !== null) {
    const search = fs.search;
    if (is("tui.altScreen.searchClose")) {
      fs.search = null;
      return {};
    }
    const previous = is("tui.altScreen.searchPrevious");
    if (previous || is("tui.altScreen.searchNext")) {
      const matches = input.search.get(layout.transcript, search.query);
      search.current = stepMatch(search.current, matches.length, previous ? -1 : 1);
      reveal(fs, matches[search.current], layout);
      return {};
    }
    let query: string | undefined;
    if (is("tui.editor.deleteCharBackward")) query = [...search.query].slice(0, -1).join("");
    else if ((key.name === "text" || key.name === "paste") && !key.ctrl)
      query = search.query + (key.text ?? "").replace(/\s+/g, " ");
    else if (key.name === "space" && !key.ctrl && !key.alt) query = `${search.query} `;
    if (query !== undefined) {
      search.query = query;
      const matches = input.search.get(layout.transcript, query);
      search.current = initialMatch(matches, layout.top + layout.rows);
      reveal(fs, matches[search.current], layout);
      return {};
    }
    // Ctrl+C still clears and exits; paging still scrolls; the rest belongs to the box.
    if (is("app.clear")) return undefined;
    if (!isScrollAction(is)) return {};
  }
  if (is("tui.altScreen.search")) {
    fs.search = { query: "", current: -1 };
    return {};
  }
  if (is("app.message.copy") && !fs.copyOnSelect && fs.selection !== null) {
    input.copy(selectionText(fs.selection, layout));
    return {};
  }
  if (input.listFocused) return undefined;
  const page = Math.max(1, layout.rows);
  const moves: Array<[string, () => number | null]> = [
    ["tui.altScreen.pageUp", () => scrollBy(fs.scrollTop, -page, total, layout.rows)],
    ["tui.altScreen.pageDown", () => scrollBy(fs.scrollTop, page, total, layout.rows)],
    ["tui.altScreen.halfPageUp", () => scrollBy(fs.scrollTop, -Math.ceil(page / 2), total, layout.rows)],
    ["tui.altScreen.halfPageDown", () => scrollBy(fs.scrollTop, Math.ceil(page / 2), total, layout.rows)],
    ["tui.altScreen.lineUp", () => scrollBy(fs.scrollTop, -1, total, layout.rows)],
    ["tui.altScreen.lineDown", () => scrollBy(fs.scrollTop, 1, total, layout.rows)],
    ["tui.altScreen.top", () => scrollTo(0, total, layout.rows)],
    ["tui.altScreen.bottom", () => null],
    ["tui.altScreen.previousPrompt", () => jump(fs, layout, -1)],
    ["tui.altScreen.nextPrompt", () => jump(fs, layout, 1)],
  ];
  for (const [action, move] of moves) {
    if (!is(action)) continue;
    fs.scrollTop = move();
    return {};
  }
  return undefined;
}

function isScrollAction(is: (action: string) => boolean): boolean {
  return ["pageUp", "pageDown", "halfPageUp", "halfPageDown", "lineUp", "lineDown", "top", "bottom"].some((a) =>
    is(`tui.altScreen.${a}`),
  );
}

function jump(fs: FullscreenState, layout: FullscreenLayout, direction: -1 | 1): number | null {
  const top = viewportTop(fs.scrollTop, layout.transcript.length, layout.rows);
  const row = promptJump(layout.prompts, top, direction);
  if (row === undefined) return direction < 0 ? scrollTo(0, layout.transcript.length, layout.rows) : null;
  return scrollTo(row, layout.transcript.length, layout.rows);
}

/** Scrolls so a selected match is in view. */
function reveal(fs: FullscreenState, match: SearchMatch | undefined, layout: FullscreenLayout): void {
  if (match === undefined) return;
  const top = viewportTop(fs.scrollTop, layout.transcript.length, layout.rows);
  fs.scrollTop = scrollTo(revealRow(top, match.row, layout.rows), layout.transcript.length, layout.rows);
}

/** Wheel scrolling, a click on the scrollbar, and selecting transcript text by dragging. */
function mouse(fs: FullscreenState, key: TuiKey, event: TuiMouse, input: FullscreenInput): void {
  const { layout } = input;
  const total = layout.transcript.length;
  if (event.action === "wheelUp" || event.action === "wheelDown") {
    const lines = (fs.wheelScrollLines === "auto" ? AUTO_WHEEL_LINES : fs.wheelScrollLines) * (key.alt ? 5 : 1);
    fs.scrollTop = scrollBy(fs.scrollTop, event.action === "wheelUp" ? -lines : lines, total, layout.rows);
    return;
  }
  if (event.button !== 0) return;
  const top = viewportTop(fs.scrollTop, total, layout.rows);
  const inViewport = event.row >= 0 && event.row < layout.rows;
  if (event.action === "press") {
    const onBar =
      scrollbarShown(fs.scrollbar, fs.scrollTop, total, layout.rows) && event.col === layout.width - 1 && inViewport;
    if (onBar) {
      const maxTop = Math.max(0, total - layout.rows);
      fs.scrollTop = scrollTo(Math.round((event.row / Math.max(1, layout.rows - 1)) * maxTop), total, layout.rows);
      fs.selection = null;
      return;
    }
    const at = { row: top + event.row, col: event.col };
    fs.selection = inViewport ? { anchor: at, head: { ...at }, dragging: true } : null;
    return;
  }
  const selection = fs.selection;
  if (selection === null || !selection.dragging) return;
  if (event.action === "drag") {
    // Dragging past the viewport's edge scrolls it a row at a time.
    if (event.row < 0 || event.row >= layout.rows)
      fs.scrollTop = scrollBy(fs.scrollTop, event.row < 0 ? -1 : 1, total, layout.rows);
    const nextTop = viewportTop(fs.scrollTop, total, layout.rows);
    const row = Math.max(0, Math.min(layout.rows - 1, event.row));
    selection.head = { row: nextTop + row, col: Math.max(0, event.col) };
    return;
  }
  if (event.action === "release") {
    selection.dragging = false;
    const { anchor, head } = selection;
    if (anchor.row === head.row && anchor.col === head.col) fs.selection = null;
    else if (fs.copyOnSelect) input.copy(selectionText(selection, layout));
  }
}

/** The selected transcript text, rows joined with newlines, trailing spaces dropped. */
export function selectionText(selection: NonNullable<FullscreenState["selection"]>, layout: FullscreenLayout): string {
  const [start, end] = ordered(selection.anchor, selection.head);
  const rows: string[] = [];
  for (let row = start.row; row <= end.row; row++) {
    const text = layout.transcript[row] ?? "";
    const from = row === start.row ? start.col : 0;
    const to = row === end.row ? end.col + 1 : Number.POSITIVE_INFINITY;
    rows.push(sliceColumns(text, from, to).trimEnd());
  }
  return rows.join("\n");
}
