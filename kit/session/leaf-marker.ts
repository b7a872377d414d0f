/**
 * The persisted leaf. pi takes the last line of a file as the active leaf, so moving the leaf without a
 * new message would be forgotten on restart. We append a `custom` entry of this type whose parent is the
 * new leaf: pi, reading the last line, resumes under it; we read it as "the leaf is my parent". The
 * marker is bookkeeping only and is hidden from the context, the user's tree and message counts.
 */
import type { CustomEntry, SessionEntry } from "../../contracts/session.js";

/** The `customType` of a leaf marker. */
export const LEAF_MARKER_TYPE = "pi-host/leaf";

/** Whether an entry is a leaf marker. */
export function isLeafMarker(entry: SessionEntry): entry is CustomEntry {
  return entry.type === "custom" && entry.customType === LEAF_MARKER_TYPE;
}
