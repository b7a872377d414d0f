/**
 * Kitty images on the alternate screen. A kitty image is an overlay placed at the cell where its
 * sequence was written, not text: rewriting the rows does not remove it. The view gives each image a
 * stable id (`i=`), so writing its row again elsewhere replaces the old placement (kitty does that for a
 * transmission with a known id); what is left is an image whose row is no longer on the screen (scrolled
 * away by a rewrite, or its entry gone), whose placement these sequences delete.
 */

/** Deletes every placement, keeping the image data (a full redraw places them again). */
export const DELETE_ALL_PLACEMENTS = "\x1b_Ga=d,d=a,q=2\x1b\\";

/** The ids of the kitty images placed by these rows. */
export function kittyImageIds(rows: readonly string[]): Set<number> {
  const ids = new Set<number>();
  for (const row of rows) {
    if (!row.includes("\x1b_G")) continue;
    for (const match of row.matchAll(/\x1b_G[^;\x1b]*\bi=(\d+)/g)) ids.add(Number(match[1]));
  }
  return ids;
}

/** The sequences that delete the placements of images in `previous` that `next` no longer shows. */
export function removedPlacements(previous: readonly string[], next: readonly string[]): string {
  const before = kittyImageIds(previous);
  if (before.size === 0) return "";
  const after = kittyImageIds(next);
  let out = "";
  for (const id of before) if (!after.has(id)) out += `\x1b_Ga=d,d=i,i=${id},q=2\x1b\\`;
  return out;
}
