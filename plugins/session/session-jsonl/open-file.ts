/**
 * Opening a session file by path, with pi's rules for the odd cases: a path with no file starts a new
 * session to be written there, an empty file gets a header at once, and a file with entries is checked
 * (bad lines reported, never dropped silently) and loaded with its header normalized for plugin state.
 */
import { statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { OpenReport, SessionHeader } from "pi-host";
import { SESSION_FILE_MODE } from "./append-file.js";
import { checkSessionEntries } from "pi-host";
import { newSessionId } from "pi-host";
import { loadSessionFile } from "./load-session-file.js";
import { SESSION_FORMAT_VERSION } from "pi-host";
import { freshSession, type OpenSession } from "./open-session.js";
import { SessionTree } from "pi-host";

/** The session a file opens as, and what the open report says beyond the session's info. */
export interface OpenedFile {
  session: OpenSession;
  extras: Pick<OpenReport, "migratedFrom" | "setAside" | "problems">;
}

/** Opens `absolute` (an absolute path) as pi does; throws on an unreadable file. */
export function openSessionFile(absolute: string): OpenedFile {
  if (!fileExists(absolute)) {
    // pi's rule for a path with no file: a new session that will be written there.
    return { session: freshSession(newHeader(), absolute, dirname(absolute)), extras: {} };
  }
  const loaded = loadSessionFile(absolute);
  let session: OpenSession;
  let problems: string[] = [];
  if (loaded.kind === "empty") {
    // pi's rule for an empty file: start a session in it and write the header at once.
    const header = newHeader();
    writeFileSync(absolute, `${JSON.stringify(header)}\n`, { mode: SESSION_FILE_MODE });
    session = { ...freshSession(header, absolute, dirname(absolute)), written: true };
  } else {
    const checked = checkSessionEntries(loaded.entries, absolute);
    problems = checked.problems;
    const tree = new SessionTree(checked.entries);
    session = {
      ...freshSession(normalHeader(loaded.header), absolute, dirname(absolute)),
      tree,
      written: true,
      needsNewline: !loaded.endsWithNewline,
      savedCount: checked.entries.length,
    };
  }
  const extras: OpenedFile["extras"] = {};
  if (loaded.kind === "session" && loaded.migratedFrom !== undefined) extras.migratedFrom = loaded.migratedFrom;
  if (loaded.setAside !== undefined) extras.setAside = loaded.setAside;
  if (problems.length > 0) extras.problems = problems;
  return { session, extras };
}

/** A header for a session started in the process's folder now. */
function newHeader(): SessionHeader {
  return {
    type: "session",
    version: SESSION_FORMAT_VERSION,
    id: newSessionId(),
    timestamp: new Date().toISOString(),
    cwd: process.cwd(),
  };
}

/** Whether anything (a file, a folder) exists at `path`; any error other than "not there" counts as there, so open reports it. */
function fileExists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/** The header as state stores it: pi's v1 headers may lack a cwd or carry a non-string parent. */
function normalHeader(header: SessionHeader): SessionHeader {
  const normal: SessionHeader = {
    ...header,
    version: SESSION_FORMAT_VERSION,
    timestamp: typeof header.timestamp === "string" ? header.timestamp : new Date(0).toISOString(),
    cwd: typeof header.cwd === "string" ? header.cwd : process.cwd(),
  };
  if (typeof normal.parentSession !== "string") delete normal.parentSession;
  return normal;
}
