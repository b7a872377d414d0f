/**
 * Reads a session file into a header and entries, repairing what a crash can leave behind without ever
 * dropping data silently. A file whose first line is not a session header is refused untouched. A line that is not a whole JSON entry (a write torn by a crash, garbage from
 * another program) is moved to a side file next to the session and reported. A torn tail is cut off
 * with one truncate, so nothing else in the file is rewritten; a bad line in the middle, or an upgrade
 * from format v1/v2, rewrites the file atomically (temp file, then rename).
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { SessionEntry, SessionHeader } from "pi-host";
import { SESSION_FILE_MODE } from "./append-file.js";
import { fileTimestamp } from "pi-host";
import { migrateSessionRecords, type RawSessionRecord } from "pi-host";
import { readCleanFile } from "./read-clean-file.js";

/** A session file as found on disk, after repair and upgrade. */
export type LoadedFile =
  | { kind: "empty"; setAside?: { lines: number; file: string } }
  | {
      kind: "session";
      header: SessionHeader;
      entries: SessionEntry[];
      migratedFrom?: number;
      setAside?: { lines: number; file: string };
      /** False when the last line has no newline yet: the next append must start one. */
      endsWithNewline: boolean;
    };

/** One non-blank line of the file: its number (counting every "\n"), its text and, when it parsed, its record. */
interface Line {
  index: number;
  text: string;
  /** Whether a newline follows the text (false only for the file's last line). */
  terminated: boolean;
  record: RawSessionRecord | undefined;
}

/** Thrown for a file whose first line is not a session header: it is not ours to repair. */
export class NotASessionFileError extends Error {
  constructor(path: string) {
    super(`not a session file (its first line is not a session header): ${path}`);
    this.name = "NotASessionFileError";
  }
}

const ATTEMPTS = 5;

/** Loads, repairs and upgrades `path`. Throws a one-line error for a missing or foreign file. */
export function loadSessionFile(path: string): LoadedFile {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const loaded = loadOnce(path);
    if (loaded !== undefined) return loaded;
  }
  throw new Error(`session file keeps changing while it is being repaired: ${path}`);
}

/** One try; undefined when another writer changed the file between reading and repairing it. */
function loadOnce(path: string): LoadedFile | undefined {
  // A clean file is read in one streamed pass; only one that needs repair or an upgrade is read whole.
  const clean = readable(path, () => readCleanFile(path));
  if (clean !== undefined) {
    if (clean.header === undefined) return { kind: "empty" };
    return { kind: "session", header: clean.header, entries: clean.entries, endsWithNewline: clean.endsWithNewline };
  }
  const buffer = readable(path, () => readFileSync(path));
  const content = buffer.toString("utf8");
  const lines = splitLines(content);
  if (!startsLikeSession(lines)) throw new NotASessionFileError(path);
  const parsed = lines.filter((line) => line.record !== undefined);
  const records = parsed.map((line) => line.record!);
  if (records.length > 0 && !isHeader(records[0])) throw new NotASessionFileError(path);
  const migratedFrom = records.length > 0 ? migrateSessionRecords(records) : undefined;

  // After the upgrade every entry must carry an id; a second header or an id-less record is a bad line too.
  const bad: Line[] = [];
  const kept: Line[] = [];
  for (const line of lines) {
    const record = line.record;
    const good =
      record !== undefined && (record === records[0] || (record.type !== "session" && typeof record.id === "string"));
    (good ? kept : bad).push(line);
  }

  let setAside: { lines: number; file: string } | undefined;
  if (bad.length > 0 || migratedFrom !== undefined) {
    const done = repair(path, buffer, kept, bad, migratedFrom !== undefined);
    if (done === false) return undefined;
    setAside = done;
  }

  if (records.length === 0) return setAside ? { kind: "empty", setAside } : { kind: "empty" };
  const header = records[0] as unknown as SessionHeader;
  const entries: SessionEntry[] = [];
  for (const line of kept) {
    const record = line.record!;
    if (record === records[0]) continue;
    if (typeof record.parentId !== "string") record.parentId = null;
    entries.push(record as unknown as SessionEntry);
  }
  const rewritten = migratedFrom !== undefined || (bad.length > 0 && !badOnlyAtTail(lines, bad));
  const lastKept = kept.at(-1);
  const endsWithNewline = rewritten || bad.length > 0 || lastKept === undefined || lastKept.terminated;
  const loaded: LoadedFile = { kind: "session", header, entries, endsWithNewline };
  if (migratedFrom !== undefined) loaded.migratedFrom = migratedFrom;
  if (setAside !== undefined) loaded.setAside = setAside;
  return loaded;
}

/** `read()`, with a missing or unreadable file reported in one line. */
function readable<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === "ENOENT"
        ? `no session file at ${path}`
        : `cannot read session file ${path}: ${(error as Error).message}`,
    );
  }
}

/** Splits the file on "\n" (never on U+2028/2029), parsing each non-blank line. */
function splitLines(content: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let index = 0; start < content.length; index++) {
    const newline = content.indexOf("\n", start);
    const end = newline === -1 ? content.length : newline;
    const text = content.slice(start, end);
    if (text.trim() !== "") lines.push({ index, text, terminated: newline !== -1, record: parseRecord(text) });
    start = end + 1;
  }
  return lines;
}

/**
 * The byte range of every line, by line number. Decoding never adds or removes a "\n" (0x0a is never
 * part of a multi-byte character), so line numbers match; the bytes are the file's own, even where a torn
 * write split a character and decoding replaced it.
 */
function byteRanges(buffer: Buffer): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  let start = 0;
  while (start < buffer.length) {
    const newline = buffer.indexOf(0x0a, start);
    const end = newline === -1 ? buffer.length : newline;
    ranges.push({ start, end });
    start = end + 1;
  }
  return ranges;
}

/** A JSON object with a string `type`, or undefined for anything else. */
function parseRecord(text: string): RawSessionRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      typeof (value as { type?: unknown }).type === "string"
    )
      return value as RawSessionRecord;
  } catch {
    // Not JSON: the caller sets the line aside.
  }
  return undefined;
}

/**
 * Whether the file can be a session: empty, or its first line is a session header, or its only line is
 * the torn start of one (a crash during the first write). Anything else (another program's JSONL) is
 * not ours to repair or rewrite.
 */
function startsLikeSession(lines: Line[]): boolean {
  const first = lines[0];
  if (first === undefined) return true;
  if (first.record !== undefined) return isHeader(first.record);
  return lines.length === 1 && !first.terminated && /^\s*\{\s*"type"\s*:\s*"session"/.test(first.text);
}

function isHeader(record: RawSessionRecord): boolean {
  return record.type === "session" && typeof record.id === "string";
}

/** Whether every bad line comes after every good one (a torn tail). */
function badOnlyAtTail(lines: Line[], bad: Line[]): boolean {
  return lines.slice(lines.length - bad.length).every((line) => bad.includes(line));
}

/**
 * Moves bad lines to a side file, then fixes the session file: a truncate for a torn tail, otherwise an
 * atomic rewrite (re-serialized after an upgrade, byte-for-byte kept lines otherwise). Returns false when
 * the file changed after it was read (another writer), so the caller reads it again.
 */
function repair(
  path: string,
  buffer: Buffer,
  kept: Line[],
  bad: Line[],
  upgraded: boolean,
): { lines: number; file: string } | undefined | false {
  const ranges = byteRanges(buffer);
  const bytesOf = (line: Line): Buffer => buffer.subarray(ranges[line.index].start, ranges[line.index].end);
  const fd = openSync(path, "r+");
  try {
    if (fstatSync(fd).size !== buffer.length) return false;
    let setAside: { lines: number; file: string } | undefined;
    if (bad.length > 0) {
      const file = `${path}.torn-${fileTimestamp(new Date().toISOString())}`;
      writeFileSync(file, Buffer.concat(bad.flatMap((line) => [bytesOf(line), NEWLINE])), {
        flag: "a",
        mode: SESSION_FILE_MODE,
      });
      setAside = { lines: bad.length, file };
    }
    const allLines = [...kept, ...bad].sort((a, b) => a.index - b.index);
    if (!upgraded && badOnlyAtTail(allLines, bad)) {
      ftruncateSync(fd, ranges[bad[0].index].start);
      return setAside;
    }
    const body = upgraded
      ? Buffer.from(kept.map((line) => `${JSON.stringify(line.record)}\n`).join(""), "utf8")
      : Buffer.concat(kept.flatMap((line) => [bytesOf(line), NEWLINE]));
    const temp = `${path}.rewrite-${process.pid}`;
    writeFileSync(temp, body, { mode: fstatSync(fd).mode & 0o777 });
    renameSync(temp, path);
    return setAside;
  } finally {
    closeSync(fd);
  }
}

const NEWLINE = Buffer.from("\n");
