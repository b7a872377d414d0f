/**
 * The prompt editor's operations, as pure functions over the view state: multi-line text with a cursor
 * that steps over whole graphemes (emoji, CJK), word motions, Emacs kills into a kill ring (Ctrl+K,
 * Ctrl+U, Ctrl+W, Alt+D; consecutive kills join), yank and yank-pop (Ctrl+Y, Alt+Y), undo (typing a run
 * of characters is one step) and prompt history (Up on the first line, Down on the last).
 */
import type { EditorState, ViewState } from "./state.js";
import { cellWidth, graphemes } from "./text.js";

const UNDO_LIMIT = 200;
const KILL_RING_LIMIT = 30;
const HISTORY_LIMIT = 500;
const segmenter = new Intl.Segmenter();

function snapshot(state: ViewState): EditorState {
  return { text: state.editor.text, cursor: state.editor.cursor };
}

/** Records an undo step before an edit; a run of typed characters shares one step. */
function remember(state: ViewState, action: ViewState["lastAction"]): void {
  if (!(action === "insert" && state.lastAction === "insert")) {
    state.undo.push(snapshot(state));
    if (state.undo.length > UNDO_LIMIT) state.undo.shift();
  }
}

function set(state: ViewState, text: string, cursor: number, action: ViewState["lastAction"]): void {
  state.editor = { text, cursor: Math.max(0, Math.min(cursor, text.length)) };
  state.lastAction = action;
  if (action !== "yank") state.yank = null;
  state.historyIndex = action === "other" ? state.historyIndex : -1;
}

/** The offset of the grapheme boundary before `offset`. */
export function previousBoundary(text: string, offset: number): number {
  if (offset <= 0) return 0;
  let last = 0;
  for (const { index } of segmenter.segment(text.slice(Math.max(0, offset - 32), offset))) last = index;
  return Math.max(0, offset - 32) + last;
}

/** The offset of the grapheme boundary after `offset`. */
export function nextBoundary(text: string, offset: number): number {
  if (offset >= text.length) return text.length;
  const first = segmenter
    .segment(text.slice(offset, offset + 32))
    [Symbol.iterator]()
    .next();
  return offset + (first.done ? 1 : first.value.segment.length);
}

/** Inserts typed or pasted text at the cursor. */
export function insert(state: ViewState, text: string): void {
  if (text === "") return;
  const typed = text.length <= 2 && !/\s/.test(text);
  remember(state, typed ? "insert" : "other");
  const { text: before, cursor } = state.editor;
  set(state, before.slice(0, cursor) + text + before.slice(cursor), cursor + text.length, typed ? "insert" : "other");
}

/** Replaces the whole text (history, a fork's message, clearing). */
export function setText(state: ViewState, text: string): void {
  if (text !== state.editor.text) remember(state, "other");
  set(state, text, text.length, "other");
}

/** Replaces the text and places the cursor (a completion taken): one undo step. */
export function replace(state: ViewState, text: string, cursor: number): void {
  remember(state, "other");
  set(state, text, cursor, "other");
}

/** Backspace: the grapheme before the cursor. */
export function backspace(state: ViewState): void {
  const { text, cursor } = state.editor;
  if (cursor === 0) return;
  remember(state, "other");
  const from = previousBoundary(text, cursor);
  set(state, text.slice(0, from) + text.slice(cursor), from, "other");
}

/** Delete / Ctrl+D: the grapheme under the cursor. */
export function deleteForward(state: ViewState): void {
  const { text, cursor } = state.editor;
  if (cursor >= text.length) return;
  remember(state, "other");
  set(state, text.slice(0, cursor) + text.slice(nextBoundary(text, cursor)), cursor, "other");
}

/** Moves the cursor to `offset` (no edit). */
export function moveTo(state: ViewState, offset: number): void {
  state.editor.cursor = Math.max(0, Math.min(offset, state.editor.text.length));
  state.lastAction = "other";
  state.yank = null;
}

/** One grapheme left. */
export function left(state: ViewState): void {
  moveTo(state, previousBoundary(state.editor.text, state.editor.cursor));
}

/** One grapheme right. */
export function right(state: ViewState): void {
  moveTo(state, nextBoundary(state.editor.text, state.editor.cursor));
}

/** Start of the word before the cursor. */
export function wordStartBefore(text: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  return i;
}

/** End of the word after the cursor. */
export function wordEndAfter(text: string, cursor: number): number {
  let i = cursor;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  while (i < text.length && !/\s/.test(text[i]!)) i++;
  return i;
}

/** Home / Ctrl+A: the start of the current line (not of the whole text). */
export function lineStart(state: ViewState): void {
  const { text, cursor } = state.editor;
  moveTo(state, text.lastIndexOf("\n", cursor - 1) + 1);
}

/** End / Ctrl+E: the end of the current line. */
export function lineEnd(state: ViewState): void {
  const { text, cursor } = state.editor;
  const end = text.indexOf("\n", cursor);
  moveTo(state, end < 0 ? text.length : end);
}

/** Moves up one line keeping the column; false when already on the first line. */
export function up(state: ViewState): boolean {
  const { text, cursor } = state.editor;
  const start = text.lastIndexOf("\n", cursor - 1) + 1;
  if (start === 0) return false;
  const column = cellWidth(text.slice(start, cursor));
  const prevStart = text.lastIndexOf("\n", start - 2) + 1;
  moveTo(state, offsetAtColumn(text, prevStart, start - 1, column));
  return true;
}

/** Moves down one line keeping the column; false when already on the last line. */
export function down(state: ViewState): boolean {
  const { text, cursor } = state.editor;
  const end = text.indexOf("\n", cursor);
  if (end < 0) return false;
  const start = text.lastIndexOf("\n", cursor - 1) + 1;
  const column = cellWidth(text.slice(start, cursor));
  const nextEnd = text.indexOf("\n", end + 1);
  moveTo(state, offsetAtColumn(text, end + 1, nextEnd < 0 ? text.length : nextEnd, column));
  return true;
}

function offsetAtColumn(text: string, start: number, end: number, column: number): number {
  let used = 0;
  let offset = start;
  for (const g of graphemes(text.slice(start, end))) {
    const w = cellWidth(g);
    if (used + w > column) break;
    used += w;
    offset += g.length;
  }
  return offset;
}

/** Removes [from, to) into the kill ring; consecutive kills join into one ring entry. */
function kill(state: ViewState, from: number, to: number, prepend: boolean): void {
  if (from >= to) return;
  const { text } = state.editor;
  const killed = text.slice(from, to);
  remember(state, "other");
  if (state.lastAction === "kill" && state.killRing.length > 0) {
    const last = state.killRing.length - 1;
    state.killRing[last] = prepend ? killed + state.killRing[last] : state.killRing[last] + killed;
  } else {
    state.killRing.push(killed);
    if (state.killRing.length > KILL_RING_LIMIT) state.killRing.shift();
  }
  set(state, text.slice(0, from) + text.slice(to), from, "kill");
}

/** Ctrl+K: to the end of the line (or the line break itself when at its end). */
export function killToLineEnd(state: ViewState): void {
  const { text, cursor } = state.editor;
  const end = text.indexOf("\n", cursor);
  kill(state, cursor, end < 0 ? text.length : end === cursor ? end + 1 : end, false);
}

/** Ctrl+U: to the start of the line. */
export function killToLineStart(state: ViewState): void {
  const { text, cursor } = state.editor;
  kill(state, text.lastIndexOf("\n", cursor - 1) + 1, cursor, true);
}

/** Ctrl+W / Alt+Backspace. */
export function killWordBackward(state: ViewState): void {
  const { text, cursor } = state.editor;
  kill(state, wordStartBefore(text, cursor), cursor, true);
}

/** Alt+D. */
export function killWordForward(state: ViewState): void {
  const { text, cursor } = state.editor;
  kill(state, cursor, wordEndAfter(text, cursor), false);
}

/** Ctrl+Y: inserts the most recent kill. */
export function yank(state: ViewState): void {
  const ring = state.killRing;
  if (ring.length === 0) return;
  const textToInsert = ring[ring.length - 1]!;
  remember(state, "other");
  const { text, cursor } = state.editor;
  set(state, text.slice(0, cursor) + textToInsert + text.slice(cursor), cursor + textToInsert.length, "yank");
  state.yank = { start: cursor, end: cursor + textToInsert.length, index: ring.length - 1 };
}

/** Alt+Y right after a yank: replaces the yanked text with the next older kill. */
export function yankPop(state: ViewState): void {
  const ring = state.killRing;
  const y = state.yank;
  if (y === null || state.lastAction !== "yank" || ring.length < 2) return;
  const index = (y.index - 1 + ring.length) % ring.length;
  const replacement = ring[index]!;
  const { text } = state.editor;
  set(state, text.slice(0, y.start) + replacement + text.slice(y.end), y.start + replacement.length, "yank");
  state.yank = { start: y.start, end: y.start + replacement.length, index };
}

/** Ctrl+- / Ctrl+Z: back to the text before the last edit. */
export function undo(state: ViewState): void {
  const previous = state.undo.pop();
  if (previous === undefined) return;
  state.editor = { ...previous };
  state.lastAction = "other";
  state.yank = null;
}

/** Remembers a sent prompt for Up/Down (no immediate duplicates). */
export function pushHistory(state: ViewState, text: string): void {
  if (text.trim() === "" || state.history[state.history.length - 1] === text) return;
  state.history.push(text);
  if (state.history.length > HISTORY_LIMIT) state.history.shift();
  state.historyIndex = -1;
}

/** Up on the first line: the previous prompt (the draft is kept for coming back). */
export function historyBack(state: ViewState): void {
  if (state.history.length === 0) return;
  if (state.historyIndex === -1) {
    state.historyDraft = state.editor.text;
    state.historyIndex = state.history.length;
  }
  if (state.historyIndex === 0) return;
  state.historyIndex--;
  const text = state.history[state.historyIndex]!;
  state.editor = { text, cursor: text.length };
}

/** Down on the last line while browsing: the next prompt, then the draft. */
export function historyForward(state: ViewState): void {
  if (state.historyIndex === -1) return;
  state.historyIndex++;
  const text = state.historyIndex >= state.history.length ? state.historyDraft : state.history[state.historyIndex]!;
  if (state.historyIndex >= state.history.length) state.historyIndex = -1;
  state.editor = { text, cursor: text.length };
}

/** The editor's rows at `width` (hard-wrapped) and where the cursor is among them. */
export function layoutEditor(
  editor: EditorState,
  width: number,
): { rows: string[]; cursorRow: number; cursorCol: number } {
  const rows: string[] = [];
  let cursorRow = 0;
  let cursorCol = 0;
  let offset = 0;
  const room = Math.max(1, width - 1);
  for (const line of editor.text.split("\n")) {
    const lineStartOffset = offset;
    let rowStart = lineStartOffset;
    let row = "";
    let used = 0;
    const placeCursor = (): void => {
      cursorRow = rows.length;
      cursorCol = used;
    };
    for (const g of graphemes(line)) {
      const w = cellWidth(g);
      if (used + w > room) {
        rows.push(row);
        row = "";
        used = 0;
      }
      if (editor.cursor === rowStart) placeCursor();
      row += g;
      used += w;
      rowStart += g.length;
    }
    if (editor.cursor === rowStart) placeCursor();
    rows.push(row);
    offset = lineStartOffset + line.length + 1;
  }
  return { rows, cursorRow, cursorCol };
}
