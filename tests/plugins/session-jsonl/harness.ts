/**
 * Test helpers for session-jsonl: temp agent folders, the plugin booted in a real Kernel and called
 * through its stable handle, message factories in pi's shapes, and a plain line-by-line reader that
 * reads a file the way pi's parser does.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "../../../contracts/agent.js";
import type { SessionEntry } from "../../../contracts/session.js";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "../../../contracts/ai/index.js";
import { SessionStoreContract, type SessionStore } from "../../../contracts/session.js";
import type { Handle, PluginDefinition } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import sessionPlugin from "../../../plugins/session/session-jsonl/index.js";
import {
  database,
  parseSessionPath,
  readEntries,
  readHeader,
  writeEntries,
} from "../../../plugins/session/session-sqlite/database.js";

/** A fresh empty folder under the system temp folder. */
export function tempDir(prefix = "pi-session-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Every method of the store, called through the kernel's handle (as other plugins reach it). */
const METHODS = [
  "newSession",
  "open",
  "continueRecent",
  "list",
  "current",
  "appendMessage",
  "appendModelChange",
  "appendThinkingLevelChange",
  "appendCompaction",
  "appendBranchSummary",
  "appendCustom",
  "appendCustomMessage",
  "appendLabel",
  "appendSessionInfo",
  "entries",
  "entry",
  "leafId",
  "branch",
  "path",
  "tree",
  "label",
  "fork",
  "buildContext",
  "deleteSession",
  "renameSession",
] as const satisfies ReadonlyArray<keyof SessionStore>;

/** A SessionStore whose every method goes through `handle.call`. */
export function throughHandle(handle: Handle<SessionStore>): SessionStore {
  const store: Record<string, unknown> = {};
  for (const method of METHODS)
    store[method] = (...args: unknown[]) => (handle.call as (m: string, ...a: unknown[]) => unknown)(method, ...args);
  return store as unknown as SessionStore;
}

/** A kernel running the session-jsonl plugin with `agentDir`, and the store behind its handle. */
export interface BootedStore {
  kernel: Kernel;
  handle: Handle<SessionStore>;
  store: SessionStore;
}

/**
 * The store the behaviour tests boot: session-jsonl, unless a test file (tests/plugins/session-sqlite)
 * sets another store with the same contract before its tests run.
 */
export const storeUnderTest: { definition: PluginDefinition<any, any> } = { definition: sessionPlugin };

/** Boots the plugin (or another definition of it) in a new Kernel. */
export async function bootStore(
  agentDir: string,
  definition: PluginDefinition<any, any> = storeUnderTest.definition,
): Promise<BootedStore> {
  const kernel = new Kernel();
  const id = definition.id;
  const result = await kernel.boot([{ id, source: { kind: "inline", label: id, definition }, config: { agentDir } }]);
  if (result.errors.length > 0 || !result.ok) throw new Error(`boot failed: ${JSON.stringify(result)}`);
  const handle = kernel.use(SessionStoreContract);
  return { kernel, handle, store: throughHandle(handle) };
}

let clock = Date.parse("2025-03-01T10:00:00.000Z");

/** A user message, as pi's interactive mode stores it (text blocks). */
export function user(text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp: (clock += 1000) };
}

/** An assistant message with text, from `provider`/`model`. */
export function assistant(text: string, provider = "anthropic", model = "claude-sonnet-4-5"): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: provider === "anthropic" ? "anthropic-messages" : "openai-responses",
    provider,
    model,
    usage: {
      input: 100,
      output: 20,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 120,
      cost: { input: 0.0003, output: 0.0003, cacheRead: 0, cacheWrite: 0, total: 0.0006 },
    },
    stopReason: "stop",
    timestamp: (clock += 1000),
  };
}

/** A tool result message. */
export function toolResult(toolCallId: string, text: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName: "bash",
    content: [{ type: "text", text }],
    isError: false,
    timestamp: (clock += 1000),
  };
}

/** The JSON objects of a file, one per line, read the way pi's parser reads it (split on "\n", skip blanks). */
export function readJsonLines(path: string): Array<Record<string, any>> {
  // A session-sqlite session path: its header and rows, as the lines `pi session export --jsonl` writes.
  const named = parseSessionPath(path);
  if (named !== undefined) {
    if (!existsSync(named.file)) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
    const header = readHeader(database(named.file), named.id);
    if (header === undefined) throw new Error(`ENOENT: no such session, open '${path}'`);
    return [header, ...readEntries(database(named.file), named.id)] as Array<Record<string, any>>;
  }
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** The messages' roles and first text, for compact context assertions. */
export function brief(messages: AgentMessage[]): string[] {
  return messages.map((m) => {
    const record = m as Record<string, any>;
    const content = record.content;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? (content.find((b: any) => b.type === "text")?.text ?? `[${content[0]?.type}]`)
          : (record.summary ?? record.command ?? "");
    return `${m.role}: ${text}`;
  });
}

/**
 * Checks what pi's parser relies on: a version-3 header first, then entries with unique 8-hex ids, ISO
 * timestamps and parent links to earlier entries; for a header we wrote (`ownHeader`), a UUID v7 id as pi
 * makes them. Returns the problems found (empty when the file is sound).
 */
export function formatProblems(path: string, options: { ownHeader?: boolean } = { ownHeader: true }): string[] {
  const problems: string[] = [];
  const lines = readJsonLines(path);
  const header = lines[0];
  if (
    header?.type !== "session" ||
    header.version !== 3 ||
    typeof header.id !== "string" ||
    typeof header.cwd !== "string"
  )
    problems.push(`bad header: ${JSON.stringify(header)}`);
  if (
    header &&
    options.ownHeader &&
    !/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(header.id)
  )
    problems.push(`header id is not a UUID v7: ${header.id}`);
  if (header && Number.isNaN(Date.parse(header.timestamp)))
    problems.push(`header timestamp is not ISO: ${header.timestamp}`);
  const seen = new Set<string>();
  for (const entry of lines.slice(1)) {
    if (entry.type === "session") problems.push("a second header");
    if (typeof entry.id !== "string" || !/^[0-9a-f]{8}$/.test(entry.id)) problems.push(`id is not 8 hex: ${entry.id}`);
    if (seen.has(entry.id)) problems.push(`duplicate id ${entry.id}`);
    if (entry.parentId !== null && !seen.has(entry.parentId))
      problems.push(`${entry.id}: parent ${entry.parentId} is not an earlier entry`);
    if (typeof entry.timestamp !== "string" || new Date(entry.timestamp).toISOString() !== entry.timestamp)
      problems.push(`${entry.id}: timestamp is not ISO: ${entry.timestamp}`);
    seen.add(entry.id);
  }
  return problems;
}

/** Whether the store under test keeps one file per session (session-jsonl), so file-level checks apply. */
export function filePerSession(): boolean {
  return storeUnderTest.definition.id === "session-jsonl";
}

/** Another writer's entry added to the stored session at `path` (a line for a file, a row for SQLite). */
export function appendForeign(path: string, entry: Record<string, any>): void {
  const named = parseSessionPath(path);
  if (named === undefined) {
    appendFileSync(path, `${JSON.stringify(entry)}\n`);
    return;
  }
  const db = database(named.file);
  writeEntries(db, readHeader(db, named.id)!, [entry as SessionEntry], false);
}

/** The stored session at `path` removed behind the store's back (its file, or its database). */
export function removeStorage(path: string): void {
  const named = parseSessionPath(path);
  if (named === undefined) rmSync(path);
  else for (const suffix of ["", "-wal", "-shm"]) rmSync(`${named.file}${suffix}`, { force: true });
}

/** Bytes on disk behind the session at `path` (the file, or the whole database it sits in). */
export function storageBytes(path: string): number {
  return statSync(parseSessionPath(path)?.file ?? path).size;
}

/** What is stored for the session at `path`, as text: the file's bytes, or its header and rows as lines. */
export function storedText(path: string): string {
  if (parseSessionPath(path) === undefined) return readFileSync(path, "utf8");
  return readJsonLines(path)
    .map((line) => `${JSON.stringify(line)}\n`)
    .join("");
}
