/**
 * The differential renderer. The view hands it the whole document each frame (transcript, then the live
 * area); it writes only what changed since the last frame, into the terminal's normal screen, so the
 * transcript scrolls into the terminal's own scrollback and stays there:
 *
 * - rows equal to the last frame's are not touched; only the changed range is rewritten;
 * - a row that only grew at its end (streamed text) gets just the new characters, at its old end;
 * - rows above the screen's top (in scrollback) cannot be reached: a change there, or a new terminal
 *   size, redraws everything once (clearing screen and scrollback, so nothing stale is left);
 * - each frame is one write wrapped in synchronized output (CSI ? 2026 h … l), so a terminal that supports
 *   it shows whole frames only.
 *
 * Model: the document starts at screen row 0 (see `begin`). `extent` counts the document rows the screen
 * has reached; the top `max(0, extent - height)` of them have scrolled into scrollback.
 *
 * On the alternate screen (fullscreen mode) the document is the screen: at most `height` rows, nothing
 * ever reaches scrollback, and a block of rows that moved up (the transcript viewport following a stream)
 * is scrolled by the terminal inside a scroll region (DECSTBM + CSI S), so only the rows that came in are
 * written.
 */
import type { TuiFrame } from "pi-host";
import { activeLink, activeSgr, cellWidth, graphemeStart, truncateToWidth, withoutTrailingSgr } from "./ansi.js";
import { DELETE_ALL_PLACEMENTS, kittyImageIds, removedPlacements } from "./kitty-placements.js";

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";
const RESET = "\x1b[0m";
const CLEAR_ALL = "\x1b[2J\x1b[3J\x1b[H";
const CLEAR_SCREEN = "\x1b[2J\x1b[H";
const ALT_SCREEN_ON = "\x1b[?1049h";
const ALT_SCREEN_OFF = "\x1b[?1049l";
/** Button and drag reporting in SGR form (no all-motion: multiplexers lag on every pointer move). */
export const MOUSE_ON = "\x1b[?1000h\x1b[?1002h\x1b[?1006h";
export const MOUSE_OFF = "\x1b[?1006l\x1b[?1002l\x1b[?1000l";
/** The most rows a scroll is looked for over (a stream moves the viewport a row or two per frame). */
const MAX_SCROLL = 12;

/** Which screen the renderer draws on: the normal one (scrollback kept) or the alternate one. */
export type RenderScreen = "normal" | "alternate";

/**
 * What leaves the alternate screen from any state (mouse off, colours reset, cursor shown): written by
 * `end`, and by the shell's exit hook when the process ends before `end` could run.
 */
export const LEAVE_ALTERNATE = `${MOUSE_OFF}${RESET}\x1b[r${ALT_SCREEN_OFF}\x1b[?25h`;

/** Counters a benchmark or test reads. */
export interface RenderStats {
  frames: number;
  bytes: number;
  fullRedraws: number;
}

/** Draws frames on a terminal through `write`. */
export class DiffRenderer {
  private previous: string[] = [];
  private extent = 1;
  private cursorRow = 0;
  private width = 0;
  private height = 0;
  private cursorShown = true;
  private started = false;
  private title: string | undefined = undefined;
  readonly stats: RenderStats = { frames: 0, bytes: 0, fullRedraws: 0 };

  constructor(
    private readonly write: (bytes: string) => void,
    /** "alternate": fullscreen mode (entered by `begin`, left by `end`). */
    readonly screen: RenderScreen = "normal",
  ) {}

  /**
   * Takes the screen for a new document: scrolls what the screen shows into scrollback (a user's shell
   * history is kept, not erased) and puts the cursor at the top-left, so the renderer knows where every row is.
   */
  begin(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.previous = [];
    this.extent = 1;
    this.cursorRow = 0;
    this.started = true;
    if (this.screen === "alternate") {
      // Every row of the screen is reachable by cursor movement: no row is ever below the "extent".
      this.extent = height;
      this.emit(`${ALT_SCREEN_ON}${MOUSE_ON}${RESET}${CLEAR_SCREEN}`);
      return;
    }
    const lines = Math.max(0, height - 1);
    this.emit(`${RESET}${"\n".repeat(lines)}${lines > 0 ? `\x1b[${lines}A` : ""}\r\x1b[J`);
  }

  /** Draws `frame` for a terminal of `width` × `height` cells. */
  render(frame: TuiFrame, width: number, height: number): void {
    if (!this.started) this.begin(width, height);
    // A copy: the caller may reuse or change its array after the frame.
    let next = frame.lines.length > 0 ? frame.lines.slice() : [""];
    let cursor = frame.cursor;
    if (this.screen === "alternate" && next.length > height) {
      // The screen holds `height` rows: the bottom ones (editor, footer) are the ones to keep.
      const cut = next.length - height;
      next = next.slice(cut);
      cursor = cursor !== null && cursor.row >= cut ? { row: cursor.row - cut, col: cursor.col } : null;
    }
    let out = SYNC_START;
    // A kitty image whose row left the alternate screen would stay drawn there: its placement goes.
    if (this.screen === "alternate") out += removedPlacements(this.previous, next);
    if (width !== this.width || height !== this.height) {
      this.width = width;
      this.height = height;
      out += this.fullRedraw(next);
    } else {
      out += this.diff(next);
    }
    out += this.placeCursor(cursor);
    if (frame.title !== undefined && frame.title !== this.title) {
      this.title = frame.title;
      out += `\x1b]0;${frame.title.replace(/[\x00-\x1f\x7f]/g, " ")}\x07`;
    }
    out += SYNC_END;
    this.previous = next;
    this.stats.frames++;
    this.emit(out);
  }

  /** Leaves the cursor on a fresh line below the document, visible, colours reset (for the shell prompt). */
  end(): void {
    if (!this.started) return;
    if (this.screen === "alternate") {
      this.started = false;
      this.cursorShown = true;
      this.emit(LEAVE_ALTERNATE);
      return;
    }
    let out = `${RESET}${this.moveTo(Math.max(0, this.previous.length - 1))}\r\n`;
    this.cursorRow = this.previous.length;
    this.extent = Math.max(this.extent, this.cursorRow + 1);
    if (!this.cursorShown) out += "\x1b[?25h";
    this.cursorShown = true;
    this.started = false;
    this.emit(out);
  }

  /** The first document row still on the screen; rows above it are in scrollback. */
  get visibleTop(): number {
    return Math.max(0, this.extent - this.height);
  }

  private emit(bytes: string): void {
    this.stats.bytes += Buffer.byteLength(bytes);
    this.write(bytes);
  }

  private diff(next: string[]): string {
    const previous = this.previous;
    const common = Math.min(previous.length, next.length);
    let first = 0;
    while (first < common && previous[first] === next[first]) first++;
    if (first === previous.length && first === next.length) return "";
    if (first < this.visibleTop) return this.fullRedraw(next);
    if (this.screen === "alternate" && next.length === previous.length) {
      const scrolled = this.scrolledDiff(previous, next, first);
      if (scrolled !== undefined) return scrolled;
    }
    // Rows equal at the end (the editor and footer under a streaming answer) keep their text; when the row
    // count changed they move, which the terminal does itself: insert or delete rows above them.
    let same = 0;
    while (same < common - first && previous[previous.length - 1 - same] === next[next.length - 1 - same]) same++;
    const grow = next.length - previous.length;
    if (same > 0 && grow !== 0) {
      const moved =
        grow > 0
          ? this.insertRows(previous.length - same, grow, next.length, first)
          : this.deleteRows(next.length - same, -grow);
      if (moved !== undefined)
        return moved + this.rewriteRange(previous, next, first, next.length - same, previous.length - same);
    }
    const end = grow === 0 ? next.length - same : next.length;
    let out = this.rewriteRange(previous, next, first, end, previous.length);
    if (grow < 0) out += `${this.moveTo(next.length)}\r\x1b[J`;
    return out;
  }

  /**
   * Alternate screen, same row count: when the changed rows [first, end) are mostly the previous ones moved
   * up by k rows (a viewport that follows new output), the terminal scrolls that region by k and only the
   * rows that still differ are written. Undefined when no such k pays.
   */
  private scrolledDiff(previous: string[], next: string[], first: number): string | undefined {
    let end = next.length;
    while (end > first && previous[end - 1] === next[end - 1]) end--;
    const rows = end - first;
    if (rows < 3) return undefined;
    let best = 0;
    let bestSame = 0;
    for (let k = 1; k <= Math.min(MAX_SCROLL, rows - 2); k++) {
      let same = 0;
      for (let row = first; row < end - k; row++) if (next[row] === previous[row + k]) same++;
      if (same > bestSame) {
        best = k;
        bestSame = same;
      }
    }
    // Worth it only when most moved rows are unchanged (then each costs nothing instead of a rewrite).
    if (best === 0 || bestSame * 2 < rows - best) return undefined;
    // The screen after the scroll: rows moved up by `best`, blank rows at the region's bottom.
    const screen = previous.slice();
    for (let row = first; row < end; row++) screen[row] = row + best < end ? previous[row + best]! : "";
    // DECSTBM homes the cursor; so does resetting it.
    let out = `\x1b[${first + 1};${end}r\x1b[${best}S\x1b[r`;
    this.cursorRow = 0;
    out += "\x1b[H";
    for (let row = first; row < end; row++) {
      if (screen[row] === next[row]) continue;
      out += this.moveTo(row);
      out += screen[row] === "" ? this.line(next[row]!) : this.rewrite(screen[row]!, next[row]!);
    }
    return out;
  }

  /** Rewrites rows [from, to) of `next`; rows below `oldRows` hold their previous text (the rest are blank). */
  private rewriteRange(previous: string[], next: string[], from: number, to: number, oldRows: number): string {
    let out = "";
    for (let row = from; row < to; row++) {
      out += this.moveTo(row);
      out += row < oldRows ? this.rewrite(previous[row]!, next[row]!) : this.line(next[row]!);
    }
    return out;
  }

  /**
   * Opens `count` blank rows at document row `at`, pushing the rows below down (CSI L), after making sure
   * the screen has room below the document so nothing of it falls off the bottom. Undefined when a row
   * involved would be above the screen's top after that (the caller rewrites instead).
   */
  private insertRows(at: number, count: number, total: number, firstChanged: number): string | undefined {
    const topAfter = Math.max(0, Math.max(this.extent, total) - this.height);
    if (at < topAfter || firstChanged < topAfter || count >= this.height) return undefined;
    // Reach row total-1 first: scrolls the screen if needed, leaving blank rows under the document.
    const reserve = this.moveTo(total - 1);
    return `${reserve}${this.moveTo(at)}\x1b[${count}L`;
  }

  /** Removes `count` rows at document row `at`, pulling the rows below up (CSI M). */
  private deleteRows(at: number, count: number): string {
    return `${this.moveTo(at)}\x1b[${count}M`;
  }

  /** A row that exists on screen: append only its new end when it just grew, else rewrite it. */
  private rewrite(before: string, after: string): string {
    const stripped = withoutTrailingSgr(before);
    if (after.length > stripped.length && after.startsWith(stripped)) {
      // Continue from a whole character: a stream may have split an emoji (or a surrogate pair) in two.
      const cut = graphemeStart(after, stripped.length);
      const base = after.slice(0, cut);
      const suffix = after.slice(cut);
      const column = cellWidth(base);
      if (column + cellWidth(suffix) <= this.width) {
        // The colours and an open hyperlink in force where the row ended continue into the new text.
        const style = activeSgr(base) + activeLink(base);
        return `\x1b[${column + 1}G${style}${suffix}${style !== "" || suffix.includes("\x1b[") ? RESET : ""}`;
      }
    }
    return this.line(after);
  }

  /** A whole row: erase it, then write it (erasing first is safe for rows that fill the width). */
  private line(text: string): string {
    const fitted = this.fit(text);
    return `\r\x1b[2K${fitted}${fitted.includes("\x1b[") ? RESET : ""}`;
  }

  private fit(text: string): string {
    return cellWidth(text) > this.width ? truncateToWidth(text, this.width) : text;
  }

  /** Clears screen and scrollback and writes the whole document from the top. */
  private fullRedraw(next: string[]): string {
    this.stats.fullRedraws++;
    // The alternate screen has no scrollback to clear (and CSI 3J would clear the normal screen's).
    let out = RESET + (this.screen === "alternate" ? CLEAR_SCREEN : CLEAR_ALL);
    // Clearing the screen leaves kitty's images; the rows written below place the shown ones again.
    if (kittyImageIds(this.previous).size > 0) out += DELETE_ALL_PLACEMENTS;
    for (let row = 0; row < next.length; row++) {
      const fitted = this.fit(next[row]!);
      out += (row > 0 ? "\r\n" : "") + fitted + (fitted.includes("\x1b[") ? RESET : "");
    }
    this.extent = this.screen === "alternate" ? this.height : next.length;
    this.cursorRow = next.length - 1;
    return out;
  }

  /** Moves the cursor to document row `row` (column unknown afterwards). */
  private moveTo(row: number): string {
    const from = this.cursorRow;
    this.cursorRow = row;
    if (row === from) return "";
    if (row < from) return `\x1b[${from - row}A`;
    if (row === from + 1) {
      this.extent = Math.max(this.extent, row + 1);
      return "\r\n";
    }
    if (row < this.extent) return `\x1b[${row - from}B`;
    // Past the rows the screen has reached: newlines scroll the screen when they reach its bottom.
    const last = this.extent - 1;
    const out = (last > from ? `\x1b[${last - from}B` : "") + "\r\n".repeat(row - Math.max(last, from));
    this.extent = row + 1;
    return out;
  }

  private placeCursor(cursor: TuiFrame["cursor"]): string {
    let out = "";
    const visible = cursor !== null && cursor.row >= this.visibleTop;
    if (visible) out += `${this.moveTo(cursor.row)}\x1b[${Math.min(cursor.col, this.width - 1) + 1}G`;
    if (visible !== this.cursorShown) out += visible ? "\x1b[?25h" : "\x1b[?25l";
    this.cursorShown = visible;
    return out;
  }
}
