/**
 * The session store: one open session at a time, kept as pi keeps it (a version-3 JSONL tree whose file
 * pi can open) with three things pi lacks: every append is one whole line in one O_APPEND write, a moved
 * leaf is persisted as a leaf marker, and the open session lives in plugin state so a reload of the store
 * picks up where the last generation stopped. Files are touched only by calls, never by setup.
 */
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { AgentMessage } from "../../contracts/agent.js";
import type { ThinkingLevel } from "../../contracts/ai/index.js";
import type {
  CustomMessageEntry,
  EntryBase,
  LabelEntry,
  OpenReport,
  SessionContext,
  SessionEntry,
  SessionHeader,
  SessionInfo,
  SessionStartOptions,
  SessionStore,
  SessionSummary,
  TreeNode,
} from "../../contracts/session.js";
import { AppendFile } from "./append-file.js";
import { buildContextFromPath } from "./build-context.js";
import { newEntryId, newSessionId } from "./ids.js";
import { isLeafMarker, LEAF_MARKER_TYPE } from "./leaf-marker.js";
import { loadSessionFile } from "./load-session-file.js";
import { defaultSessionDir, sessionFilePath, sessionsRoot } from "./location.js";
import { newestFirst, newestSessionFile, summariesIn, summariesUnder } from "./list-sessions.js";
import { CURRENT_VERSION } from "./migrate-format.js";
import { SessionTree } from "./session-tree.js";
import { restoredEntries, type OpenSessionState, type StoreState } from "./state.js";

/** What the plugin hands the store: where sessions live, and its reloadable state. */
export interface StoreOptions {
  agentDir: string;
  getState: () => StoreState;
  setState: (next: StoreState) => void;
}

/** The open session. */
interface OpenSession {
  header: SessionHeader;
  /** The session file; undefined for an in-memory session. */
  path: string | undefined;
  sessionDir: string | undefined;
  tree: SessionTree;
  /** The header and every entry are on disk. pi writes a new file only once an assistant message exists. */
  written: boolean;
  file: AppendFile | undefined;
  /** The file's last line has no newline yet (written by another program); our next write starts one. */
  needsNewline: boolean;
}

const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** pi-compatible JSONL session store. */
export class JsonlSessionStore implements SessionStore {
  private session: OpenSession | undefined = undefined;
  private restored = false;

  constructor(private readonly options: StoreOptions) {}

  // ── choosing the session ──────────────────────────────────────────────────────────────────────

  async newSession(options: SessionStartOptions): Promise<SessionInfo> {
    const cwd = requireCwd(options, "newSession");
    const timestamp = new Date().toISOString();
    const header: SessionHeader = { type: "session", version: CURRENT_VERSION, id: newSessionId(), timestamp, cwd };
    if (options.parentSession !== undefined) header.parentSession = options.parentSession;
    const sessionDir = options.inMemory ? undefined : this.sessionDirFor(options);
    const path = sessionDir === undefined ? undefined : sessionFilePath(sessionDir, timestamp, header.id);
    this.switchTo({ header, path, sessionDir, tree: new SessionTree(), written: false, file: undefined, needsNewline: false });
    return this.info(this.session!);
  }

  async open(path: string): Promise<OpenReport> {
    if (typeof path !== "string" || path === "") throw new Error("open needs the path of a session file");
    const absolute = resolve(path);
    const loaded = loadSessionFile(absolute);
    let session: OpenSession;
    if (loaded.kind === "empty") {
      // pi's rule for an empty file: start a session in it and write the header at once.
      const header: SessionHeader = { type: "session", version: CURRENT_VERSION, id: newSessionId(), timestamp: new Date().toISOString(), cwd: process.cwd() };
      writeFileSync(absolute, `${JSON.stringify(header)}\n`);
      session = { header, path: absolute, sessionDir: dirname(absolute), tree: new SessionTree(), written: true, file: undefined, needsNewline: false };
    } else {
      const tree = new SessionTree(loaded.entries);
      session = { header: normalHeader(loaded.header), path: absolute, sessionDir: dirname(absolute), tree, written: true, file: undefined, needsNewline: !loaded.endsWithNewline };
    }
    this.switchTo(session);
    const report: OpenReport = this.info(session);
    if (loaded.kind === "session" && loaded.migratedFrom !== undefined) report.migratedFrom = loaded.migratedFrom;
    if (loaded.setAside !== undefined) report.setAside = loaded.setAside;
    return report;
  }

  async continueRecent(options: SessionStartOptions): Promise<SessionInfo> {
    requireCwd(options, "continueRecent");
    if (options.inMemory) return this.newSession(options);
    const newest = await newestSessionFile(this.sessionDirFor(options));
    return newest === undefined ? this.newSession(options) : this.open(newest);
  }

  async list(options: { cwd?: string; sessionDir?: string } = {}): Promise<SessionSummary[]> {
    if (options.cwd !== undefined) return newestFirst(await summariesIn(this.sessionDirFor({ cwd: options.cwd, sessionDir: options.sessionDir })));
    if (options.sessionDir !== undefined) return newestFirst(await summariesIn(resolve(options.sessionDir)));
    return newestFirst(await summariesUnder(sessionsRoot(this.options.agentDir)));
  }

  current(): SessionInfo | undefined {
    this.ensureRestored();
    return this.session === undefined ? undefined : this.info(this.session);
  }

  // ── appending ─────────────────────────────────────────────────────────────────────────────────

  appendMessage(message: AgentMessage): string {
    if (message === null || typeof message !== "object" || typeof message.role !== "string") throw new Error("appendMessage needs a message with a string `role`");
    const s = this.requireSession();
    return this.commit(s, { type: "message", ...this.base(s), message });
  }

  appendModelChange(provider: string, modelId: string): string {
    if (!nonEmpty(provider) || !nonEmpty(modelId)) throw new Error("appendModelChange needs a provider and a model id");
    const s = this.requireSession();
    return this.commit(s, { type: "model_change", ...this.base(s), provider, modelId });
  }

  appendThinkingLevelChange(level: ThinkingLevel): string {
    if (!THINKING_LEVELS.includes(level)) throw new Error(`unknown thinking level ${JSON.stringify(level)}; use one of ${THINKING_LEVELS.join(", ")}`);
    const s = this.requireSession();
    return this.commit(s, { type: "thinking_level_change", ...this.base(s), thinkingLevel: level });
  }

  appendCompaction(summary: string, firstKeptEntryId: string, tokensBefore: number, details?: unknown, fromHook?: boolean): string {
    if (typeof summary !== "string") throw new Error("appendCompaction needs a summary string");
    if (typeof tokensBefore !== "number" || !Number.isFinite(tokensBefore)) throw new Error("appendCompaction needs tokensBefore as a number");
    const s = this.requireSession();
    this.requireEntry(s, firstKeptEntryId, "appendCompaction: firstKeptEntryId");
    return this.commit(s, {
      type: "compaction",
      ...this.base(s),
      summary,
      firstKeptEntryId,
      tokensBefore,
      ...(details !== undefined ? { details } : {}),
      ...(fromHook !== undefined ? { fromHook } : {}),
    });
  }

  appendBranchSummary(fromId: string, summary: string, details?: unknown, fromHook?: boolean): string {
    if (!nonEmpty(fromId) || typeof summary !== "string") throw new Error("appendBranchSummary needs the id the branch was left from and a summary string");
    const s = this.requireSession();
    return this.commit(s, {
      type: "branch_summary",
      ...this.base(s),
      fromId,
      summary,
      ...(details !== undefined ? { details } : {}),
      ...(fromHook !== undefined ? { fromHook } : {}),
    });
  }

  appendCustom(customType: string, data?: unknown): string {
    if (!nonEmpty(customType)) throw new Error("appendCustom needs a customType");
    const s = this.requireSession();
    return this.commit(s, { type: "custom", customType, ...(data !== undefined ? { data } : {}), ...this.base(s) });
  }

  appendCustomMessage(customType: string, content: CustomMessageEntry["content"], display: boolean, details?: unknown): string {
    if (!nonEmpty(customType)) throw new Error("appendCustomMessage needs a customType");
    if (typeof content !== "string" && !Array.isArray(content)) throw new Error("appendCustomMessage needs content as a string or an array of text/image blocks");
    if (typeof display !== "boolean") throw new Error("appendCustomMessage needs display as a boolean");
    const s = this.requireSession();
    return this.commit(s, { type: "custom_message", customType, content, display, ...(details !== undefined ? { details } : {}), ...this.base(s) });
  }

  appendLabel(targetId: string, label: string | undefined): string {
    if (label !== undefined && typeof label !== "string") throw new Error("appendLabel needs a label string, or undefined to clear it");
    const s = this.requireSession();
    this.requireEntry(s, targetId, "appendLabel: target");
    return this.commit(s, { type: "label", ...this.base(s), targetId, ...(label !== undefined ? { label } : {}) });
  }

  appendSessionInfo(name: string): string {
    if (typeof name !== "string") throw new Error("appendSessionInfo needs a name string");
    const s = this.requireSession();
    return this.commit(s, { type: "session_info", ...this.base(s), name: name.trim() });
  }

  // ── reading and moving ────────────────────────────────────────────────────────────────────────

  entries(): SessionEntry[] {
    this.ensureRestored();
    return this.session === undefined ? [] : [...this.session.tree.entries];
  }

  entry(id: string): SessionEntry | undefined {
    this.ensureRestored();
    return this.session?.tree.entry(id);
  }

  leafId(): string | null {
    this.ensureRestored();
    return this.session === undefined ? null : this.session.tree.leafId;
  }

  branch(entryId: string | null): void {
    const s = this.requireSession();
    let target = entryId;
    if (target !== null) {
      const entry = this.requireEntry(s, target, "branch");
      if (isLeafMarker(entry)) target = entry.parentId;
    }
    if (target === s.tree.leafId) return;
    if (s.path === undefined) {
      s.tree.moveLeaf(target);
      this.saveState();
      return;
    }
    this.commit(s, { type: "custom", customType: LEAF_MARKER_TYPE, data: {}, id: newEntryId(s.tree.ids), parentId: target, timestamp: new Date().toISOString() });
  }

  path(entryId?: string): SessionEntry[] {
    const s = this.requireSession();
    if (entryId !== undefined) this.requireEntry(s, entryId, "path");
    return s.tree.rawPath(entryId ?? s.tree.leafId).filter((entry) => !isLeafMarker(entry));
  }

  tree(): TreeNode[] {
    this.ensureRestored();
    return this.session === undefined ? [] : this.session.tree.tree();
  }

  label(entryId: string): string | undefined {
    this.ensureRestored();
    return this.session?.tree.label(entryId);
  }

  async fork(entryId?: string): Promise<SessionInfo> {
    const s = this.requireSession();
    if (entryId !== undefined) this.requireEntry(s, entryId, "fork");
    const path = this.path(entryId).filter((entry) => entry.type !== "label");
    const timestamp = new Date().toISOString();
    const header: SessionHeader = { type: "session", version: CURRENT_VERSION, id: newSessionId(), timestamp, cwd: s.header.cwd };
    if (s.path !== undefined) header.parentSession = s.path;

    // Labels are re-created at the end of the copied path, as pi does, so they survive without their history.
    const ids = new Set(path.map((entry) => entry.id));
    const entries: SessionEntry[] = [...path];
    let parentId = path.at(-1)?.id ?? null;
    for (const [targetId, labelEntry] of s.tree.labelEntries()) {
      if (!ids.has(targetId)) continue;
      const label: LabelEntry = { type: "label", id: newEntryId(ids), parentId, timestamp: labelEntry.timestamp, targetId, label: labelEntry.label };
      ids.add(label.id);
      entries.push(label);
      parentId = label.id;
    }

    const tree = new SessionTree(entries);
    const filePath = s.sessionDir === undefined ? undefined : sessionFilePath(s.sessionDir, timestamp, header.id);
    const forked: OpenSession = { header, path: filePath, sessionDir: s.sessionDir, tree, written: false, file: undefined, needsNewline: false };
    if (filePath !== undefined && tree.hasAssistant) this.writeAll(forked);
    this.switchTo(forked);
    return this.info(forked);
  }

  /**
   * The context from the leaf to the root. Built once per state of the tree (which tree, which leaf, how
   * many entries), since a turn asks for it several times; callers get their own arrays.
   */
  buildContext(): SessionContext {
    this.ensureRestored();
    if (this.session === undefined) return { messages: [], entryIds: [] };
    const tree = this.session.tree;
    const key = { tree, leafId: tree.leafId, size: tree.entries.length };
    const cached = this.contextCache;
    if (cached === undefined || cached.key.tree !== key.tree || cached.key.leafId !== key.leafId || cached.key.size !== key.size) {
      this.contextCache = { key, context: buildContextFromPath(tree.rawPath(tree.leafId)) };
    }
    const { context } = this.contextCache!;
    return { ...context, messages: [...context.messages], entryIds: [...context.entryIds] };
  }

  private contextCache: { key: { tree: unknown; leafId: string | null; size: number }; context: SessionContext } | undefined;

  /** Closes the session file's descriptor (the plugin's retire step); state keeps the session open. */
  close(): void {
    this.session?.file?.close();
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────────────

  /** Adds an entry: on disk first (one write), then in memory, then in state. Returns its id. */
  private commit(s: OpenSession, entry: SessionEntry): string {
    if (s.path !== undefined) {
      if (s.written) this.write(s, [entry]);
      else if (s.tree.hasAssistant || (entry.type === "message" && entry.message.role === "assistant")) this.writeAll(s, entry);
    }
    s.tree.add(entry);
    this.saveState();
    return entry.id;
  }

  /** Writes the header and every entry (plus `next`) in one write: pi's first flush. */
  private writeAll(s: OpenSession, next?: SessionEntry): void {
    this.write(s, next === undefined ? [s.header, ...s.tree.entries] : [s.header, ...s.tree.entries, next]);
    s.written = true;
  }

  private write(s: OpenSession, records: Array<SessionHeader | SessionEntry>): void {
    s.file ??= new AppendFile(s.path!);
    let text = s.needsNewline ? "\n" : "";
    for (const record of records) text += `${JSON.stringify(record)}\n`;
    try {
      s.file.append(text);
    } catch (error) {
      throw new Error(`cannot append to session file ${s.path}: ${(error as Error).message}`);
    }
    s.needsNewline = false;
  }

  private base(s: OpenSession): EntryBase {
    return { id: newEntryId(s.tree.ids), parentId: s.tree.leafId, timestamp: new Date().toISOString() };
  }

  private requireSession(): OpenSession {
    this.ensureRestored();
    if (this.session === undefined) throw new Error("no session is open: call newSession, open or continueRecent first");
    return this.session;
  }

  private requireEntry(s: OpenSession, id: string, what: string): SessionEntry {
    const entry = typeof id === "string" ? s.tree.entry(id) : undefined;
    if (entry === undefined) throw new Error(`${what}: no entry ${JSON.stringify(id)} in session ${s.header.id}`);
    return entry;
  }

  private sessionDirFor(options: { cwd: string; sessionDir?: string }): string {
    return options.sessionDir !== undefined ? resolve(options.sessionDir) : defaultSessionDir(this.options.agentDir, options.cwd);
  }

  /** Makes `next` the open session; whatever state held before is superseded, so it is never restored. */
  private switchTo(next: OpenSession): void {
    if (this.session !== next) this.session?.file?.close();
    this.session = next;
    this.restored = true;
    this.saveState();
  }

  private info(s: OpenSession): SessionInfo {
    const info: SessionInfo = { id: s.header.id, path: s.path, cwd: s.header.cwd };
    if (s.header.parentSession !== undefined) info.parentSession = s.header.parentSession;
    if (s.tree.name !== undefined) info.name = s.tree.name;
    return info;
  }

  /** Records the open session in plugin state (the file, the leaf, and the entries when they are not on disk). */
  private saveState(): void {
    const s = this.session;
    if (s === undefined) {
      this.options.setState({});
      return;
    }
    const open: OpenSessionState = { header: s.header, leafId: s.tree.leafId };
    if (s.path !== undefined) open.path = s.path;
    if (s.sessionDir !== undefined) open.sessionDir = s.sessionDir;
    if (!s.written) open.unwritten = s.tree.entries;
    this.options.setState({ open });
  }

  /**
   * On the first call of a generation, re-opens the session the previous generation left in state: from
   * its file, or from the entries state carried, with the leaf where it was.
   */
  private ensureRestored(): void {
    if (this.restored) return;
    this.restored = true;
    const open = this.options.getState().open;
    if (open === undefined) return;
    let tree: SessionTree;
    let needsNewline = false;
    try {
      if (open.unwritten !== undefined || open.path === undefined) {
        tree = new SessionTree(open.unwritten === undefined ? [] : restoredEntries(open.unwritten));
      } else {
        const loaded = loadSessionFile(open.path);
        tree = new SessionTree(loaded.kind === "session" ? loaded.entries : []);
        needsNewline = loaded.kind === "session" && !loaded.endsWithNewline;
      }
    } catch (error) {
      // Nothing usable to resume: say so once, and start from "no session open".
      this.options.setState({});
      throw new Error(`the session open before the reload could not be resumed: ${(error as Error).message}`);
    }
    if (open.leafId === null || tree.entry(open.leafId) !== undefined) tree.moveLeaf(open.leafId);
    this.session = {
      header: open.header as SessionHeader,
      path: open.path,
      sessionDir: open.sessionDir,
      tree,
      written: open.unwritten === undefined && open.path !== undefined,
      file: undefined,
      needsNewline,
    };
  }
}

function requireCwd(options: SessionStartOptions, method: string): string {
  if (options === null || typeof options !== "object" || !nonEmpty(options.cwd)) throw new Error(`${method} needs options with a non-empty cwd`);
  return options.cwd;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/** The header as state stores it: pi's v1 headers may lack a cwd or carry a non-string parent. */
function normalHeader(header: SessionHeader): SessionHeader {
  const normal: SessionHeader = {
    ...header,
    version: CURRENT_VERSION,
    timestamp: typeof header.timestamp === "string" ? header.timestamp : new Date(0).toISOString(),
    cwd: typeof header.cwd === "string" ? header.cwd : process.cwd(),
  };
  if (typeof normal.parentSession !== "string") delete normal.parentSession;
  return normal;
}
