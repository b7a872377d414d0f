/**
 * The forgiving comparison behind edit's second chance. Models retype text with straight quotes,
 * ASCII hyphens, plain spaces and no trailing whitespace; files often hold smart quotes, Unicode dashes,
 * NBSPs and stray trailing spaces. Both sides are folded to one form for the search, and every folded
 * character remembers which original characters it came from, so only the matched region of the file is
 * replaced and the rest keeps its exact bytes.
 */

/** Folded text plus, per folded character, the original range [start, end) it came from. */
export interface FoldedText {
  text: string;
  starts: number[];
  ends: number[];
}

/** One base character with the combining marks that follow it, or a run of stray marks. */
const GRAPHEME_PIECE = /\P{M}\p{M}*|\p{M}+/gsu;

/** Replaces look-alike punctuation and spaces with their ASCII forms. */
function asciiLookalikes(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

/**
 * Folds LF text: trailing whitespace of each line dropped, NFKC compatibility forms, smart quotes to
 * ASCII quotes, Unicode dashes to "-", special spaces to " ".
 */
export function foldForMatch(text: string): FoldedText {
  const folded: FoldedText = { text: "", starts: [], ends: [] };
  const pieces: string[] = [];
  const lines = text.split("\n");
  let lineStart = 0;
  lines.forEach((line, index) => {
    for (const piece of line.trimEnd().matchAll(GRAPHEME_PIECE)) {
      const start = lineStart + piece.index;
      const end = start + piece[0].length;
      const output = asciiLookalikes(piece[0].normalize("NFKC"));
      pieces.push(output);
      for (let i = 0; i < output.length; i++) {
        folded.starts.push(start);
        folded.ends.push(end);
      }
    }
    const lineEnd = lineStart + line.length;
    if (index < lines.length - 1) {
      pieces.push("\n");
      folded.starts.push(lineEnd);
      folded.ends.push(lineEnd + 1);
    }
    lineStart = lineEnd + 1;
  });
  folded.text = pieces.join("");
  return folded;
}

/** How many non-overlapping times `needle` occurs in `haystack`, and where the first one starts. */
export function occurrences(haystack: string, needle: string): { count: number; first: number } {
  const first = haystack.indexOf(needle);
  let count = 0;
  for (let at = first; at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return { count, first };
}

/**
 * The original range covered by folded characters [start, start + length). A match that ends where a
 * line ends also takes the trailing whitespace folding dropped, so the replacement leaves none behind.
 */
export function originalRange(
  folded: FoldedText,
  original: string,
  start: number,
  length: number,
): { start: number; end: number } {
  const last = start + length - 1;
  let end = folded.ends[last];
  const endsInsideLine = folded.text[last] !== "\n";
  const next = start + length;
  if (endsInsideLine && next === folded.text.length) end = original.length;
  else if (endsInsideLine && folded.text[next] === "\n") end = folded.starts[next];
  return { start: folded.starts[start], end };
}
