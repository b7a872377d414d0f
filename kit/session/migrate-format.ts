/**
 * Older session files, brought to version 3 the way pi does it, so a session pi upgraded and one we
 * upgraded read the same: v1 → v2 gives every entry an 8-hex id and links each to the one before it
 * (a compaction's `firstKeptEntryIndex` becomes `firstKeptEntryId`); v2 → v3 renames the message role
 * `hookMessage` to `custom`.
 */
import { newEntryId } from "./session-ids.js";

/** The format version this store writes. */
export const SESSION_FORMAT_VERSION = 3;

/** A parsed line: a JSON object with a string `type`. */
export type RawSessionRecord = Record<string, unknown> & { type: string };

/**
 * Upgrades `records` (every parsed line in file order, header first) in place. Returns the version it
 * upgraded from, or undefined when the file is already current.
 */
export function migrateSessionRecords(records: RawSessionRecord[]): number | undefined {
  const header = records.find((r) => r.type === "session");
  const version = typeof header?.version === "number" ? header.version : 1;
  if (version >= SESSION_FORMAT_VERSION) return undefined;
  if (version < 2) addTreeLinks(records);
  if (version < 3) renameHookMessages(records);
  return version;
}

/** v1 → v2: a linear file becomes a one-branch tree. */
function addTreeLinks(records: RawSessionRecord[]): void {
  const ids = new Set<string>();
  let previous: string | null = null;
  for (const record of records) {
    if (record.type === "session") {
      record.version = 2;
      continue;
    }
    const id = newEntryId(ids);
    ids.add(id);
    record.id = id;
    record.parentId = previous;
    previous = id;
    if (record.type === "compaction" && typeof record.firstKeptEntryIndex === "number") {
      // The index counts lines from the top of the file, header included (pi's reading of v1).
      const kept = records[record.firstKeptEntryIndex];
      if (kept !== undefined && kept.type !== "session") record.firstKeptEntryId = kept.id;
      delete record.firstKeptEntryIndex;
    }
  }
}

/** v2 → v3: extension messages got the role name `custom`. */
function renameHookMessages(records: RawSessionRecord[]): void {
  for (const record of records) {
    if (record.type === "session") {
      record.version = 3;
      continue;
    }
    const message = record.message as { role?: unknown } | undefined;
    if (record.type === "message" && message !== null && typeof message === "object" && message.role === "hookMessage")
      message.role = "custom";
  }
}
