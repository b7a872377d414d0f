/**
 * Transcript search in fullscreen mode: the rendered transcript rows searched as plain text, without case,
 * each match the cells it covers, row by row; which match a new query selects (the one nearest the viewport's
 * bottom, so the search starts where the user reads); and stepping through matches with wrap-around.
 */
import { cellWidth, stripSgr } from "./text.js";

/** Cells of one row that a match covers. */
export interface MatchSegment {
  row: number;
  col: number;
  width: number;
}

/** One match: its cells, one segment per row it covers (a match may run over a wrapped row's end). */
export interface SearchMatch {
  segments: MatchSegment[];
  /** The row of its first segment. */
  row: number;
}

/** A run of corpus text and where it sits: ASCII runs map offsets to columns one to one. */
interface Span {
  start: number;
  end: number;
  row: number;
  col: number;
  width: number;
  linear: boolean;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const segmenter = new Intl.Segmenter();

/**
 * The rows as one text, as pi 1.6.0 searches them: whitespace (row ends included) is one space, so a
 * phrase wrapped onto the next row is still found.
 */
function corpus(rows: readonly string[]): { text: string; spans: Span[] } {
  const chunks: string[] = [];
  const spans: Span[] = [];
  let length = 0;
  let gap = false;
  const push = (text: string, row: number, col: number, width: number, linear: boolean): void => {
    if (gap) {
      chunks.push(" ");
      length += 1;
      gap = false;
    }
    chunks.push(text);
    spans.push({ start: length, end: length + text.length, row, col, width, linear });
    length += text.length;
  };
  for (let row = 0; row < rows.length; row++) {
    const line = stripSgr(rows[row]!);
    if (PRINTABLE_ASCII.test(line)) {
      for (const word of line.matchAll(/[^ ]+/g)) {
        if (length > 0 && (word.index > 0 || gap)) gap = true;
        push(word[0], row, word.index, word[0].length, true);
      }
    } else {
      let col = 0;
      for (const { segment } of segmenter.segment(line)) {
        const width = cellWidth(segment);
        if (/^\s+$/u.test(segment)) gap = length > 0;
        else push(segment, row, col, width, false);
        col += width;
      }
    }
    if (length > 0) gap = true;
  }
  return { text: chunks.join(""), spans };
}

/** Every match of `query` in `rows`, without case (whitespace in the query collapsed; none when empty). */
export function findMatches(rows: readonly string[], query: string): SearchMatch[] {
  const needle = query.replace(/\s+/g, " ").trim().toLowerCase();
  if (needle === "") return [];
  const { text, spans } = corpus(rows);
  const lower = text.toLowerCase();
  // toLowerCase may change the length (rare letters); then the text is searched as it is.
  const haystack = lower.length === text.length ? lower : text;
  const matches: SearchMatch[] = [];
  let first = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
    const end = at + needle.length;
    while (first < spans.length && spans[first]!.end <= at) first++;
    const segments: MatchSegment[] = [];
    for (let i = first; i < spans.length && spans[i]!.start < end; i++) {
      const span = spans[i]!;
      const from = span.linear ? span.col + Math.max(at, span.start) - span.start : span.col;
      const to = span.linear ? span.col + Math.min(end, span.end) - span.start : span.col + span.width;
      const last = segments[segments.length - 1];
      if (last !== undefined && last.row === span.row && from <= last.col + last.width + 1) last.width = to - last.col;
      else segments.push({ row: span.row, col: from, width: to - from });
    }
    if (segments.length > 0) matches.push({ segments, row: segments[0]!.row });
  }
  return matches;
}

/** The match a new query selects: the last one above the viewport's bottom, else the first; -1 for none. */
export function initialMatch(matches: readonly SearchMatch[], viewportBottom: number): number {
  if (matches.length === 0) return -1;
  for (let i = matches.length - 1; i >= 0; i--) if (matches[i]!.row < viewportBottom) return i;
  return 0;
}

/** The next (`1`) or previous (`-1`) match, wrapping around; -1 when there are none. */
export function stepMatch(current: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return direction > 0 ? 0 : count - 1;
  return (current + direction + count) % count;
}

/** Caches the matches while the transcript rows and the query stay the same (frames while searching). */
export class SearchCache {
  private rows: readonly string[] = [];
  private query = "";
  private matches: SearchMatch[] = [];

  /** The matches of `query` in `rows`, recomputed only when either changed. */
  get(rows: readonly string[], query: string): SearchMatch[] {
    let same = query === this.query && rows.length === this.rows.length;
    for (let i = 0; same && i < rows.length; i++) same = rows[i] === this.rows[i];
    if (!same) {
      this.rows = rows.slice();
      this.query = query;
      this.matches = findMatches(rows, query);
    }
    return this.matches;
  }
}
