/**
 * Forking: a new session holding the path from the root to an entry. Labels are re-created at the end
 * of the copied path, as pi does, so they survive without the history they were set in.
 */
import type { SessionEntry, SessionHeader } from "pi-host";
import { forkEntries, newSessionId } from "pi-host";
import { sessionFilePath } from "pi-host";
import { SESSION_FORMAT_VERSION } from "pi-host";
import { freshSession, type OpenSession } from "./open-session.js";
import { SessionTree } from "pi-host";

/** The session forked from `s` with `path` (entries without labels, root first); not yet written. */
export function forkedSession(s: OpenSession, path: SessionEntry[]): OpenSession {
  const timestamp = new Date().toISOString();
  const header: SessionHeader = {
    type: "session",
    version: SESSION_FORMAT_VERSION,
    id: newSessionId(),
    timestamp,
    cwd: s.header.cwd,
  };
  if (s.path !== undefined) header.parentSession = s.path;

  const tree = new SessionTree(forkEntries(s.tree, path));
  const filePath = s.sessionDir === undefined ? undefined : sessionFilePath(s.sessionDir, timestamp, header.id);
  return { ...freshSession(header, filePath, s.sessionDir), tree };
}
