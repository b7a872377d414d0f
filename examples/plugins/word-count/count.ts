/**
 * Counting, kept apart from the plugin so it can be tested and reused without a kernel: a pure function
 * of the text, nothing else.
 */

/** What the tool reports for one text. */
export interface TextCounts {
  words: number;
  lines: number;
  characters: number;
}

/**
 * Counts words (runs of non-space), lines (as an editor shows them: a last line without a newline still
 * counts) and characters (code points, so an emoji is one, not two UTF-16 units).
 */
export function countText(text: string): TextCounts {
  const words = text.split(/\s+/).filter((word) => word !== "").length;
  const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return { words, lines, characters: [...text].length };
}
