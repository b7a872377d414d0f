/**
 * JSON mode's first line is the session header, as pi prints it: `{"type":"session","version":3,"id",
 * "timestamp","cwd"}`. The session contract tells which session is open but not when it was created, so
 * the header is read from the session file when one is on disk, and otherwise (a new session not yet
 * written, or `--no-session`) made from the session info with the current time.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { SessionHeader, SessionInfo } from "pi-host";

/** How far into a file the header line may reach; real headers are a few hundred bytes. */
const HEADER_READ_LIMIT = 64 * 1024;

/** The header line's value for the open session. */
export function sessionHeader(
  info: Pick<SessionInfo, "id" | "path"> & Partial<Pick<SessionInfo, "cwd" | "parentSession">>,
): SessionHeader {
  const onDisk = info.path === undefined ? undefined : readHeader(info.path);
  if (onDisk !== undefined && onDisk.id === info.id) return onDisk;
  const header: SessionHeader = {
    type: "session",
    version: 3,
    id: info.id,
    timestamp: new Date().toISOString(),
    cwd: info.cwd ?? process.cwd(),
  };
  if (info.parentSession !== undefined) header.parentSession = info.parentSession;
  return header;
}

/** The first line of a session file when it is a session header; undefined when missing or unreadable. */
function readHeader(path: string): SessionHeader | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(HEADER_READ_LIMIT);
    const length = readSync(fd, buffer, 0, HEADER_READ_LIMIT, 0);
    const text = buffer.subarray(0, length).toString("utf8");
    const end = text.indexOf("\n");
    const value = JSON.parse(end === -1 ? text : text.slice(0, end)) as Partial<SessionHeader>;
    return value.type === "session" && typeof value.id === "string" ? (value as SessionHeader) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
