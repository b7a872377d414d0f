/**
 * Inline image sequences in a terminal row (the kitty graphics protocol's APC `ESC _ G … ESC \` and
 * iTerm2's `OSC 1337 ; File=… BEL`, with the cursor-up iTerm2 rows start with): the view puts them in
 * rows and the renderer writes them as they are, so both measure a row without them — they cover no
 * cells of their own.
 */

/** One image sequence (kitty chunk, or iTerm2 with its leading cursor-up). */
const IMAGE_SEQUENCE = /\x1b_G[^\x1b]*\x1b\\|(?:\x1b\[\d+A)?\x1b\]1337;File=[^\x07]*\x07/g;

/** Whether a row carries an inline image. */
export function hasImageSequence(row: string): boolean {
  return row.includes("\x1b_G") || row.includes("\x1b]1337;File=");
}

/** The row without its image sequences (what its cells show). */
export function stripImageSequences(row: string): string {
  return hasImageSequence(row) ? row.replace(IMAGE_SEQUENCE, "") : row;
}
