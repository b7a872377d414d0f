/**
 * Writing what the session file lacks, in one O_APPEND write: the header and every entry for pi's first
 * flush (once an assistant message exists) or for a file deleted under us, otherwise the entries past
 * `savedCount`. A failure keeps the entries in memory for the next call and is reported once per run of
 * failures; a file deleted while in use is written again in full, and that is reported too.
 */
import type { SessionEntry, SessionHeader, SessionSaveProblem } from "pi-host";
import { AppendFile, type AppendIo } from "./append-file.js";
import type { OpenSession } from "./open-session.js";

/** Told why the open session could not be saved as it was, with a one-line message. */
export type ReportSaveProblem = (s: OpenSession, reason: SessionSaveProblem["reason"], error: string) => void;

/**
 * Brings `s`'s file up to date with its tree (a no-op for an in-memory session, and before pi's first
 * flush unless `force`: a durable run writes its prompt before the first answer exists).
 */
export function persistSession(
  s: OpenSession,
  io: AppendIo | undefined,
  report: ReportSaveProblem,
  force = false,
): void {
  if (s.path === undefined) return;
  if (!s.written && !s.tree.hasAssistant && !force) return;
  s.file ??= new AppendFile(s.path, io);
  if (s.written && s.file.presence() === "missing") {
    s.written = false;
    s.needsNewline = false;
    s.file.close();
    report(
      s,
      "deleted",
      `session file ${s.path} was deleted while in use; it is written again with the whole session so far`,
    );
  }
  const records: Array<SessionHeader | SessionEntry> = s.written
    ? s.tree.entries.slice(s.savedCount)
    : [s.header, ...s.tree.entries];
  if (records.length === 0) return;
  let text = s.needsNewline ? "\n" : "";
  for (const record of records) text += `${JSON.stringify(record)}\n`;
  try {
    s.file.append(text);
  } catch (error) {
    if (!s.failing) report(s, "write", `cannot save the session to ${s.path}: ${(error as Error).message}`);
    s.failing = true;
    return;
  }
  s.failing = false;
  s.written = true;
  s.needsNewline = false;
  s.savedCount = s.tree.entries.length;
}
