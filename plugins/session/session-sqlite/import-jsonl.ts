/**
 * Reading a pi version-3 JSONL session file to import it: the header line, then one entry per line.
 * A torn last line (a crash mid-write) is left out and counted; any other bad line refuses the file.
 */
import { readFileSync } from "node:fs";
import type { SessionEntry, SessionHeader } from "pi-host";

/** The session a JSONL file holds. */
export interface ImportedSession {
  header: SessionHeader;
  entries: SessionEntry[];
  /** Torn lines left out. */
  setAside: number;
}

/** Reads `file`; throws one line saying what to do when it is not a version-3 session file. */
export function importJsonlFile(file: string): ImportedSession {
  const lines = readFileSync(file, "utf8").split("\n");
  const records: unknown[] = [];
  let setAside = 0;
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      records.push(JSON.parse(line));
    } catch {
      if (index < lines.length - 2) throw new Error(`${file}: line ${index + 1} is not JSON; fix or remove it`);
      setAside++;
    }
  });
  const header = records[0] as Partial<SessionHeader> | undefined;
  if (header?.type !== "session" || typeof header.id !== "string")
    throw new Error(`${file}: not a pi session file (its first line is not a session header)`);
  if (header.version !== 3)
    throw new Error(
      `${file}: session format version ${String(header.version ?? 1)}; open it once with pi to upgrade it to version 3, then import it`,
    );
  const entries = records.slice(1) as SessionEntry[];
  for (const entry of entries)
    if (entry === null || typeof entry !== "object" || typeof entry.id !== "string" || typeof entry.type !== "string")
      throw new Error(`${file}: an entry without an id or type; this file cannot be imported as is`);
  const clean: SessionHeader = {
    type: "session",
    version: 3,
    id: header.id,
    timestamp: typeof header.timestamp === "string" ? header.timestamp : new Date().toISOString(),
    cwd: typeof header.cwd === "string" ? header.cwd : process.cwd(),
  };
  if (typeof header.parentSession === "string") clean.parentSession = header.parentSession;
  return { header: clean, entries, setAside };
}
