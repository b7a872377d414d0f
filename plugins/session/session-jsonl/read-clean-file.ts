/**
 * The fast way to read a session file that needs no repair: one pass over the bytes, a chunk at a time,
 * each line decoded and parsed as it is met, so what stays in memory is the parsed entries only — never
 * the whole file as a Buffer, a string, an array of lines and the objects all at once (for a 15 MB,
 * 20,000-entry session that was ~45 MB of transient memory before a single entry was indexed).
 *
 * It gives up (undefined) at the first thing it would have to repair or upgrade — a line that is not a
 * whole JSON entry, a header missing or not of the current version, a second header, an entry without an
 * id — and the careful reader (load-session-file.ts) then reads the file again the old way, with every
 * repair it knows. So a clean file costs one streamed pass, and a damaged one the same as before.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { SessionEntry, SessionHeader } from "pi-host";
import { SESSION_FORMAT_VERSION } from "pi-host";
import { SharedStrings } from "./shared-strings.js";

/** A clean file as read: its header (undefined for an empty file), entries in file order. */
export interface CleanFile {
  header: SessionHeader | undefined;
  entries: SessionEntry[];
  /** False when the last line has no newline yet: the next append must start one. */
  endsWithNewline: boolean;
}

/** Bytes read at a time; a line longer than this grows the buffer. */
const CHUNK = 1 << 20;

/** Reads `path` when it is a clean current-format session (or empty); undefined when it needs repair. */
export function readCleanFile(path: string): CleanFile | undefined {
  const fd = openSync(path, "r");
  try {
    return readLines(fd);
  } finally {
    closeSync(fd);
  }
}

function readLines(fd: number): CleanFile | undefined {
  let buffer = Buffer.allocUnsafe(CHUNK);
  let filled = 0;
  let header: SessionHeader | undefined;
  const entries: SessionEntry[] = [];
  const strings = new SharedStrings();
  let endsWithNewline = true;
  let eof = false;
  while (!eof) {
    if (filled === buffer.length) {
      // One line fills the whole buffer: make room for the rest of it.
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const read = readSync(fd, buffer, filled, buffer.length - filled, null);
    eof = read === 0;
    filled += read;
    const view = buffer.subarray(0, filled);
    let start = 0;
    for (;;) {
      let end = view.indexOf(0x0a, start);
      if (end === -1) {
        if (!eof || start >= filled) break;
        end = filled; // the last line, without a newline
      }
      const terminated = end < filled;
      if (end > start) {
        const line = view.toString("utf8", start, end);
        const record = parseLine(line);
        if (record === undefined) {
          if (line.trim() !== "") return undefined;
        } else if (header === undefined) {
          if (!isCurrentHeader(record)) return undefined;
          header = record as unknown as SessionHeader;
          endsWithNewline = terminated;
        } else {
          if (record.type === "session" || typeof record.id !== "string") return undefined;
          if (typeof record.parentId !== "string") record.parentId = null;
          strings.share(record);
          entries.push(record as unknown as SessionEntry);
          endsWithNewline = terminated;
        }
      }
      start = end + 1;
    }
    // Keep the unfinished line at the front of the buffer for the next read.
    if (start > 0) {
      buffer.copy(buffer, 0, start, filled);
      filled -= Math.min(start, filled);
    }
  }
  return { header, entries, endsWithNewline };
}

/** A JSON object with a string `type`, else undefined. */
function parseLine(line: string): (Record<string, unknown> & { type: string }) | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  return typeof (value as { type?: unknown }).type === "string"
    ? (value as Record<string, unknown> & { type: string })
    : undefined;
}

/** A session header of the current format (an older one needs the careful reader's upgrade). */
function isCurrentHeader(record: Record<string, unknown>): boolean {
  return (
    record.type === "session" &&
    typeof record.id === "string" &&
    typeof record.version === "number" &&
    record.version >= SESSION_FORMAT_VERSION
  );
}
