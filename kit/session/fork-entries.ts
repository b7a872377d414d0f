/**
 * A fork's entries: the copied path, then the labels set on it re-created at its end, as pi forks, so
 * they survive without the history they were set in.
 */
import type { LabelEntry, SessionEntry } from "../../contracts/session.js";
import { newEntryId } from "./session-ids.js";
import type { SessionTree } from "./session-tree.js";

/** `path` (root first, without labels) followed by a label entry for each labelled entry on it. */
export function forkEntries(tree: SessionTree, path: SessionEntry[]): SessionEntry[] {
  const ids = new Set(path.map((entry) => entry.id));
  const entries: SessionEntry[] = [...path];
  let parentId = path.at(-1)?.id ?? null;
  for (const [targetId, labelEntry] of tree.labelEntries()) {
    if (!ids.has(targetId)) continue;
    const label: LabelEntry = {
      type: "label",
      id: newEntryId(ids),
      parentId,
      timestamp: labelEntry.timestamp,
      targetId,
      label: labelEntry.label,
    };
    ids.add(label.id);
    entries.push(label);
    parentId = label.id;
  }
  return entries;
}
