/**
 * Forking: a new session holding the path from the root to an entry. Labels are re-created at the end
 * of the copied path, as pi does, so they survive without the history they were set in.
 */
import type { LabelEntry, SessionEntry, SessionHeader } from "pi-host";
import { newEntryId, newSessionId } from "pi-host";
import { sessionFilePath } from "pi-host";
import { CURRENT_VERSION } from "./migrate-format.js";
import { freshSession, type OpenSession } from "./open-session.js";
import { SessionTree } from "pi-host";

/** The session forked from `s` with `path` (entries without labels, root first); not yet written. */
export function forkedSession(s: OpenSession, path: SessionEntry[]): OpenSession {
  const timestamp = new Date().toISOString();
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_VERSION,
    id: newSessionId(),
    timestamp,
    cwd: s.header.cwd,
  };
  if (s.path !== undefined) header.parentSession = s.path;

  const ids = new Set(path.map((entry) => entry.id));
  const entries: SessionEntry[] = [...path];
  let parentId = path.at(-1)?.id ?? null;
  for (const [targetId, labelEntry] of s.tree.labelEntries()) {
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

  const tree = new SessionTree(entries);
  const filePath = s.sessionDir === undefined ? undefined : sessionFilePath(s.sessionDir, timestamp, header.id);
  return { ...freshSession(header, filePath, s.sessionDir), tree };
}
