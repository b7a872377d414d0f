/**
 * Session listings from the databases, computed as the JSONL store computes them from files: the latest
 * name, the first user message's text, the number of message entries, created from the header and
 * modified from the last user or assistant message; newest first.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { sessionsRoot, type SessionSummary } from "pi-host";
import { DB_FILE, database, readEntries, readHeader, sessionIds, sessionPath } from "./database.js";

/** Summaries of the sessions in `dirs` (default: every folder under the agent folder's sessions/). */
export function listSessions(dirs: string[] | undefined, agentDir?: string): SessionSummary[] {
  const folders = dirs ?? allFolders(sessionsRoot(agentDir!));
  const summaries: SessionSummary[] = [];
  for (const dir of folders) {
    const file = join(dir, DB_FILE);
    if (!existsSync(file)) continue;
    const db = database(file);
    for (const id of sessionIds(db)) {
      const summary = summarize(dir, id);
      if (summary !== undefined) summaries.push(summary);
    }
  }
  return summaries.sort((a, b) => Date.parse(b.modified) - Date.parse(a.modified));
}

/** The id of the session in `dir` written to last (the "continue" choice), or undefined. */
export function newestSession(dir: string): string | undefined {
  const file = join(dir, DB_FILE);
  if (!existsSync(file)) return undefined;
  const row = database(file)
    .prepare(
      "SELECT s.id AS id FROM sessions s LEFT JOIN entries e ON e.session_id = s.id GROUP BY s.id ORDER BY MAX(COALESCE(e.seq, 0)) DESC, s.timestamp DESC LIMIT 1",
    )
    .get() as { id: string } | undefined;
  return row?.id;
}

function allFolders(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(root, d.name));
  } catch {
    return [];
  }
}

function summarize(dir: string, id: string): SessionSummary | undefined {
  const db = database(join(dir, DB_FILE));
  const header = readHeader(db, id);
  if (header === undefined) return undefined;
  let name: string | undefined;
  let firstMessage = "";
  let messageCount = 0;
  let lastActivity = 0;
  for (const entry of readEntries(db, id)) {
    if (entry.type === "session_info") name = entry.name.trim() !== "" ? entry.name.trim() : undefined;
    if (entry.type !== "message") continue;
    messageCount++;
    const message = entry.message as { role?: string; timestamp?: unknown; content?: unknown };
    if (message.role !== "user" && message.role !== "assistant") continue;
    const time = typeof message.timestamp === "number" ? message.timestamp : Date.parse(entry.timestamp);
    if (!Number.isNaN(time)) lastActivity = Math.max(lastActivity, time);
    const text = textOf(message.content);
    if (text !== "" && firstMessage === "" && message.role === "user") firstMessage = text;
  }
  const created = header.timestamp;
  const summary: SessionSummary = {
    id,
    path: sessionPath(dir, id),
    cwd: header.cwd,
    firstMessage: firstMessage || "(no messages)",
    messageCount,
    created,
    modified: lastActivity > 0 ? new Date(lastActivity).toISOString() : created,
  };
  if (name !== undefined) summary.name = name;
  if (header.parentSession !== undefined) summary.parentSession = header.parentSession;
  return summary;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b) => b !== null && typeof b === "object" && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join(" ");
}
