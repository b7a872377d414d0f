/**
 * Transcript search in fullscreen mode: the rendered transcript rows searched as plain text, without case,
 * each match a row and its cells; which match a new query selects (the one nearest the viewport's
 * bottom, so the search starts where the user reads); and stepping through matches with wrap-around.
 */
import { cellWidth, stripSgr } from "./text.js";

/** One match: its row and the cells it covers. */
export interface SearchMatch {
  row: number;
  col: number;
  width: number;
}

/** Every match of `query` in `rows` (whitespace in the query collapsed; none for an empty query). */
export function findMatches(rows: readonly string[], query: string): SearchMatch[] {
  const needle = query.replace(/\s+/g, " ").trim().toLowerCase();
  if (needle === "") return [];
  const matches: SearchMatch[] = [];
  for (let row = 0; row < rows.length; row++) {
    const plain = stripSgr(rows[row]!);
    const lower = plain.toLowerCase();
    // toLowerCase may change a row's length (rare letters); such a row is searched as it is.
    const haystack = lower.length === plain.length ? lower : plain;
    let at = haystack.indexOf(needle);
    while (at >= 0) {
      matches.push({
        row,
        col: cellWidth(plain.slice(0, at)),
        width: Math.max(1, cellWidth(plain.slice(at, at + needle.length))),
      });
      at = haystack.indexOf(needle, at + needle.length);
    }
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
