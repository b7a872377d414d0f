/**
 * Session listings for a resume picker, computed as pi computes them so both show the same list: the
 * name from the latest `session_info`, the first user message's text, the number of message entries
 * (leaf markers are `custom` entries, so they never count), created from the header and modified from
 * the last user or assistant message. Reading is lenient and read-only: a bad line is skipped here and
 * only repaired when the session is opened.
 */
import { open, readdir, readFile, stat, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { SessionSummary } from "pi-host";

/** Summaries of every `.jsonl` session directly in `dir`; a missing folder has none. */
export async function summariesIn(dir: string): Promise<SessionSummary[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const summaries = await Promise.all(
    names.filter((name) => name.endsWith(".jsonl")).map((name) => summarize(join(dir, name))),
  );
  return summaries.filter((summary): summary is SessionSummary => summary !== undefined);
}

/** Summaries of every session in every project folder under `root`. */
export async function summariesUnder(root: string): Promise<SessionSummary[]> {
  let dirs: string[];
  try {
    dirs = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => join(root, d.name));
  } catch {
    return [];
  }
  return (await Promise.all(dirs.map(summariesIn))).flat();
}

/** Newest first, by last activity. */
export function newestFirst(summaries: SessionSummary[]): SessionSummary[] {
  return summaries.sort((a, b) => Date.parse(b.modified) - Date.parse(a.modified));
}

/** One file's summary, or undefined when it is not a session file. */
async function summarize(path: string): Promise<SessionSummary | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  const records: Array<Record<string, any>> = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === "object") records.push(value as Record<string, any>);
    } catch {
      // A torn or foreign line; opening the session sets it aside.
    }
  }
  const header = records[0];
  if (header === undefined || header.type !== "session" || typeof header.id !== "string") return undefined;

  let name: string | undefined;
  let firstMessage = "";
  let messageCount = 0;
  let lastActivity = 0;
  for (const record of records) {
    if (record.type === "session_info")
      name = typeof record.name === "string" && record.name.trim() !== "" ? record.name.trim() : undefined;
    if (record.type !== "message") continue;
    messageCount++;
    const message = record.message;
    if (message === null || typeof message !== "object" || (message.role !== "user" && message.role !== "assistant"))
      continue;
    const time = typeof message.timestamp === "number" ? message.timestamp : Date.parse(record.timestamp);
    if (!Number.isNaN(time)) lastActivity = Math.max(lastActivity, time);
    const text = textOf(message.content);
    if (text !== "" && firstMessage === "" && message.role === "user") firstMessage = text;
  }

  const modifiedTime = (await stat(path).catch(() => undefined))?.mtimeMs ?? 0;
  const created = Date.parse(header.timestamp);
  const summary: SessionSummary = {
    id: header.id,
    path,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    firstMessage: firstMessage || "(no messages)",
    messageCount,
    created: new Date(Number.isNaN(created) ? modifiedTime : created).toISOString(),
    modified: new Date(lastActivity > 0 ? lastActivity : Number.isNaN(created) ? modifiedTime : created).toISOString(),
  };
  if (name !== undefined) summary.name = name;
  if (typeof header.parentSession === "string" && header.parentSession !== "")
    summary.parentSession = header.parentSession;
  return summary;
}

/** A message's text: the string, or its text blocks joined by spaces. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (block) => block !== null && typeof block === "object" && block.type === "text" && typeof block.text === "string",
    )
    .map((block) => block.text as string)
    .join(" ");
}

/** The session file in `dir` written to most recently (pi's "continue" choice), or undefined. */
export async function newestSessionFile(dir: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  let newest: { path: string; mtimeMs: number } | undefined;
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile() || !(await startsWithHeader(path))) continue;
    if (newest === undefined || info.mtimeMs > newest.mtimeMs) newest = { path, mtimeMs: info.mtimeMs };
  }
  return newest?.path;
}

/** Whether the file's first line is a session header (read from the first 64 KB, like pi's quick check). */
async function startsWithHeader(path: string): Promise<boolean> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, "r");
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(65_536), 0, 65_536, 0);
    const text = buffer.toString("utf8", 0, bytesRead);
    const newline = text.indexOf("\n");
    const header = JSON.parse(newline === -1 ? text : text.slice(0, newline)) as { type?: unknown; id?: unknown };
    return header.type === "session" && typeof header.id === "string";
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}
