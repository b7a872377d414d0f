/**
 * What the renderer needs to know about a row it did not draw itself: how many terminal cells it covers
 * (wide CJK and emoji count two, SGR codes none), how to cut it to the screen width, and which colours are
 * in force at a point, so appended text continues in the same style.
 */
import { stripImageSequences } from "pi-host";
import stringWidth from "string-width";

/** Matches one SGR (colour/style) sequence. */
const SGR = /\x1b\[[0-9;:]*m/g;

/** Terminal cells a row covers (an inline image's sequence none). ASCII rows skip the Unicode tables. */
export function cellWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  return stringWidth(stripImageSequences(text));
}

const segmenter = new Intl.Segmenter();

/**
 * The start of the grapheme (user-perceived character) that contains offset `at` of `text`, or `at`
 * itself when a grapheme starts there. Only the neighbourhood of `at` is segmented.
 */
export function graphemeStart(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const code = text.charCodeAt(at - 1);
  const next = text.charCodeAt(at);
  // Fast path: ASCII on both sides is always a boundary.
  if (code < 0x7f && next < 0x7f) return at;
  const from = Math.max(0, at - 24);
  let start = from;
  for (const { index } of segmenter.segment(text.slice(from, Math.min(text.length, at + 24)))) {
    if (from + index > at) break;
    start = from + index;
  }
  return start;
}

/** Strips SGR sequences that close a row: the part before them is what an append continues from. */
export function withoutTrailingSgr(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "m") {
    const start = text.lastIndexOf("\x1b[", end - 1);
    if (start < 0 || !/^\x1b\[[0-9;:]*m$/.test(text.slice(start, end))) break;
    end = start;
  }
  return text.slice(0, end);
}

/** The SGR sequences in force at the end of `text` (everything since the last full reset), to replay. */
export function activeSgr(text: string): string {
  let active = "";
  SGR.lastIndex = 0; // matchAll starts where the last exec left the shared pattern
  for (const match of text.matchAll(SGR)) {
    const code = match[0];
    active = code === "\x1b[0m" || code === "\x1b[m" ? "" : active + code;
  }
  return active;
}

/** Matches one OSC 8 hyperlink mark (`ESC ] 8 ; params ; url ST`): an opening one has a URL, a closing one none. */
const LINK = /\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)(?:\x07|\x1b\\)/g;
const LINK_CLOSE = "\x1b]8;;\x1b\\";

/**
 * The hyperlink open at the end of `text` (its opening mark, to replay before appended text), or "" when
 * none is: OSC 8 marks take no cells, but text written after an open mark is part of the link.
 */
export function activeLink(text: string): string {
  let open = "";
  LINK.lastIndex = 0; // matchAll starts where the last exec left the shared pattern
  for (const match of text.matchAll(LINK)) open = match[1] === "" ? "" : match[0];
  return open;
}

/**
 * Cuts a row to `width` cells, keeping its SGR codes and hyperlink marks (which take no cells; a link the
 * cut leaves open is closed); a wide character that would straddle the edge goes.
 */
export function truncateToWidth(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  let index = 0;
  const close = (): string => `${out}\x1b[0m${activeLink(out) === "" ? "" : LINK_CLOSE}`;
  while (index < text.length) {
    if (text.startsWith("\x1b[", index) || text.startsWith("\x1b]8;", index)) {
      const pattern = text[index + 1] === "[" ? SGR : LINK;
      pattern.lastIndex = index;
      const match = pattern.exec(text);
      if (match !== null && match.index === index) {
        out += match[0];
        index += match[0].length;
        continue;
      }
    }
    const next = nextEscape(text, index + 1);
    const chunk = text.slice(index, next < 0 ? text.length : next);
    for (const { segment } of segmenter.segment(chunk)) {
      const w = cellWidth(segment);
      if (used + w > width) return close();
      out += segment;
      used += w;
    }
    index += chunk.length;
  }
  return out;
}

/** Where the next SGR or hyperlink mark starts at or after `from`, or -1. */
function nextEscape(text: string, from: number): number {
  const sgr = text.indexOf("\x1b[", from);
  const link = text.indexOf("\x1b]8;", from);
  if (sgr < 0) return link;
  if (link < 0) return sgr;
  return Math.min(sgr, link);
}
