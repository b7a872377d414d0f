/**
 * The open session as the store holds it, and its round trip through plugin state: what a generation
 * records so the next one (after a reload) re-opens the same session, from its file or from the entries
 * that never reached it, with the leaf where it was.
 */
import type { SessionHeader } from "pi-host";
import type { AppendFile } from "./append-file.js";
import { checkSessionEntries } from "pi-host";
import { loadSessionFile } from "./load-session-file.js";
import { SessionTree } from "pi-host";
import { restoredEntries, type OpenSessionState } from "./state.js";

/** The open session. */
export interface OpenSession {
  header: SessionHeader;
  /** The session file; undefined for an in-memory session. */
  path: string | undefined;
  sessionDir: string | undefined;
  tree: SessionTree;
  /** The header and every entry are on disk. pi writes a new file only once an assistant message exists. */
  written: boolean;
  file: AppendFile | undefined;
  /** The file's last line has no newline yet (written by another program); our next write starts one. */
  needsNewline: boolean;
  /** How many of `tree.entries` are in the file (when `written`); the rest wait for a write that succeeds. */
  savedCount: number;
  /** The last write failed; the failure was reported, and is not reported again until a write succeeds. */
  failing: boolean;
}

/** A session with no entries yet, not yet on disk. */
export function freshSession(
  header: SessionHeader,
  path: string | undefined,
  sessionDir: string | undefined,
): OpenSession {
  return {
    header,
    path,
    sessionDir,
    tree: new SessionTree(),
    written: false,
    file: undefined,
    needsNewline: false,
    savedCount: 0,
    failing: false,
  };
}

/** What plugin state records of `s`: the file, the leaf, and the entries when they are not all on disk. */
export function openSessionState(s: OpenSession): OpenSessionState {
  const open: OpenSessionState = { header: s.header, leafId: s.tree.leafId };
  if (s.path !== undefined) open.path = s.path;
  if (s.sessionDir !== undefined) open.sessionDir = s.sessionDir;
  if (!s.written) open.unwritten = s.tree.entries;
  else if (s.savedCount < s.tree.entries.length) {
    // Entries a failed write left out: the next generation takes them from state, not from the file.
    open.unwritten = s.tree.entries;
    open.savedCount = s.savedCount;
  }
  return open;
}

/** Re-opens the session `open` records: from its file, or from the entries state carried. Throws when neither is usable. */
export function restoreOpenSession(open: OpenSessionState): OpenSession {
  let tree: SessionTree;
  let needsNewline = false;
  let savedCount = typeof open.savedCount === "number" ? open.savedCount : 0;
  if (open.unwritten !== undefined || open.path === undefined) {
    tree = new SessionTree(open.unwritten === undefined ? [] : restoredEntries(open.unwritten));
  } else {
    const loaded = loadSessionFile(open.path);
    const entries = loaded.kind === "session" ? checkSessionEntries(loaded.entries, open.path).entries : [];
    tree = new SessionTree(entries);
    savedCount = entries.length;
    needsNewline = loaded.kind === "session" && !loaded.endsWithNewline;
  }
  if (open.leafId === null || tree.entry(open.leafId) !== undefined) tree.moveLeaf(open.leafId);
  return {
    header: open.header as SessionHeader,
    path: open.path,
    sessionDir: open.sessionDir,
    tree,
    written: open.path !== undefined && (open.unwritten === undefined || typeof open.savedCount === "number"),
    file: undefined,
    needsNewline,
    savedCount,
    failing: false,
  };
}
