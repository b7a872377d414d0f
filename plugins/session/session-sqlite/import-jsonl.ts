/**
 * Reading a pi JSONL session file to import it, with the same rules session-jsonl opens it by: an old
 * format (v1, v2) is upgraded as pi upgrades it, a damaged entry is skipped with one line saying so, a
 * torn last line (a crash mid-write) is left out and counted. The file itself is never changed.
 */
import { readFileSync } from "node:fs";
import {
  checkSessionEntries,
  migrateSessionRecords,
  type RawSessionRecord,
  type SessionEntry,
  type SessionHeader,
} from "pi-host";

/** The session a JSONL file holds. */
export interface ImportedSession {
  header: SessionHeader;
  entries: SessionEntry[];
  /** Torn lines left out. */
  setAside: number;
  /** The format version the file was upgraded from, when it was older than 3. */
  migratedFrom?: number;
  /** One line per damaged entry that was skipped. */
  problems: string[];
}

/** Reads `file`; throws one line saying what to do when it is not a pi session file. */
export function importJsonlFile(file: string): ImportedSession {
  const lines = readFileSync(file, "utf8").split("\n");
  const records: RawSessionRecord[] = [];
  let setAside = 0;
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      if (index < lines.length - 2) throw new Error(`${file}: line ${index + 1} is not JSON; fix or remove it`);
      setAside++;
      return;
    }
    if (record === null || typeof record !== "object" || typeof (record as { type?: unknown }).type !== "string")
      throw new Error(`${file}: line ${index + 1} is not a session entry; fix or remove it`);
    records.push(record as RawSessionRecord);
  });
  const first = records[0] as Partial<SessionHeader> | undefined;
  if (first?.type !== "session" || typeof first.id !== "string")
    throw new Error(`${file}: not a pi session file (its first line is not a session header)`);
  const migratedFrom = migrateSessionRecords(records);
  const raw = records.slice(1) as unknown as SessionEntry[];
  for (const entry of raw)
    if (typeof entry.id !== "string")
      throw new Error(`${file}: an entry without an id; this file cannot be imported as is`);
  const checked = checkSessionEntries(raw, file);
  const header: SessionHeader = {
    type: "session",
    version: 3,
    id: first.id,
    timestamp: typeof first.timestamp === "string" ? first.timestamp : new Date().toISOString(),
    cwd: typeof first.cwd === "string" ? first.cwd : process.cwd(),
  };
  if (typeof first.parentSession === "string") header.parentSession = first.parentSession;
  const imported: ImportedSession = { header, entries: checked.entries, setAside, problems: checked.problems };
  if (migratedFrom !== undefined) imported.migratedFrom = migratedFrom;
  return imported;
}
