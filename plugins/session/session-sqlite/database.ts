/**
 * The session database of one session folder (`<folder>/sessions.sqlite`): a row per session (its
 * header) and a row per entry (its JSON, in append order). A session is named by the path
 * `<folder>/sessions.sqlite#<session id>`, so hosts pass it around as they pass a JSONL file's path.
 * Connections are opened once per file and kept for the process.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SessionEntry, SessionHeader } from "pi-host";
import { openDatabase, type Database } from "./driver.js";

/** The database file in a session folder. */
export const DB_FILE = "sessions.sqlite";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY, timestamp TEXT NOT NULL, cwd TEXT NOT NULL, parent_session TEXT
);
CREATE TABLE IF NOT EXISTS entries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_session ON entries (session_id, seq);
`;

const open = new Map<string, Database>();

/** The path that names session `id` in `sessionDir`'s database. */
export function sessionPath(sessionDir: string, id: string): string {
  return `${join(sessionDir, DB_FILE)}#${id}`;
}

/** The database file and session id a session path names, or undefined for any other path. */
export function parseSessionPath(path: string): { file: string; id: string } | undefined {
  const hash = path.lastIndexOf("#");
  if (hash === -1 || !path.slice(0, hash).endsWith(DB_FILE)) return undefined;
  return { file: path.slice(0, hash), id: path.slice(hash + 1) };
}

/** The open connection to `file`, creating the file, its folder and its tables on first use. */
export function database(file: string): Database {
  let db = open.get(file);
  if (db === undefined) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    db = openDatabase(file);
    db.exec(SCHEMA);
    open.set(file, db);
  }
  return db;
}

/** Closes every connection (the plugin's retire step). */
export function closeDatabases(): void {
  for (const db of open.values()) db.close();
  open.clear();
}

/** The header of session `id`, or undefined when the database has no such session. */
export function readHeader(db: Database, id: string): SessionHeader | undefined {
  const row = db.prepare("SELECT id, timestamp, cwd, parent_session FROM sessions WHERE id = ?").get(id) as
    | { id: string; timestamp: string; cwd: string; parent_session: string | null }
    | undefined;
  if (row === undefined) return undefined;
  const header: SessionHeader = { type: "session", version: 3, id: row.id, timestamp: row.timestamp, cwd: row.cwd };
  if (row.parent_session !== null) header.parentSession = row.parent_session;
  return header;
}

/** Session `id`'s entries in append order. */
export function readEntries(db: Database, id: string): SessionEntry[] {
  const rows = db.prepare("SELECT json FROM entries WHERE session_id = ? ORDER BY seq").all(id) as Array<{
    json: string;
  }>;
  return rows.map((row) => JSON.parse(row.json) as SessionEntry);
}

/** The ids of every session in the database. */
export function sessionIds(db: Database): string[] {
  return (db.prepare("SELECT id FROM sessions").all() as Array<{ id: string }>).map((row) => row.id);
}

/**
 * Writes `entries` (and the header, when `withHeader`) in one transaction: when this returns, they are
 * committed; when it throws, none of them is.
 */
export function writeEntries(db: Database, header: SessionHeader, entries: SessionEntry[], withHeader: boolean): void {
  inTransaction(db, () => {
    if (withHeader)
      db.prepare("INSERT OR IGNORE INTO sessions (id, timestamp, cwd, parent_session) VALUES (?, ?, ?, ?)").run(
        header.id,
        header.timestamp,
        header.cwd,
        header.parentSession ?? null,
      );
    const insert = db.prepare("INSERT INTO entries (session_id, id, json) VALUES (?, ?, ?)");
    for (const entry of entries) insert.run(header.id, entry.id, JSON.stringify(entry));
  });
}

/** Removes session `id` and its entries in one transaction (the database file stays). */
export function deleteSessionRows(db: Database, id: string): void {
  inTransaction(db, () => {
    db.prepare("DELETE FROM entries WHERE session_id = ?").run(id);
    db.prepare("DELETE FROM sessions WHERE id = ?").run(id);
  });
}

/** Runs `work` in one immediate transaction: committed when it returns, rolled back when it throws. */
function inTransaction(db: Database, work: () => void): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    work();
    db.exec("COMMIT");
  } catch (error) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // The transaction was never opened or is already gone.
    }
    throw error;
  }
}
