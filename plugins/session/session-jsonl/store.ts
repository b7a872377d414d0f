/**
 * The session store: one open session at a time, kept as pi keeps it (a version-3 JSONL tree whose file
 * pi can open) with three things pi lacks: every append is one whole line in one O_APPEND write, a moved
 * leaf is persisted as a leaf marker, and the open session lives in plugin state so a reload of the store
 * picks up where the last generation stopped. Files are touched only by calls, never by setup.
 *
 * A failed write never loses an entry or tears the file: the entry stays in memory, the file is cut back
 * to its last whole line, the failure is reported once (SESSION_SAVE_ERROR_EVENT), and the next append
 * writes every entry still missing from the file. A session file deleted while in use is written again
 * in full, and that is reported too.
 */
import { resolve } from "node:path";
import { buildSessionContext, type AgentMessage } from "pi-host";
import type { ThinkingLevel } from "pi-host";
import type {
  CustomMessageEntry,
  EntryBase,
  OpenReport,
  SessionContext,
  SessionEntry,
  SessionHeader,
  SessionInfo,
  SessionSaveProblem,
  SessionStartOptions,
  SessionStore,
  SessionSummary,
  TreeNode,
} from "pi-host";
import type { AppendIo } from "./append-file.js";
import { forkedSession } from "./fork.js";
import { isSessionId, newEntryId, newSessionId } from "pi-host";
import { isLeafMarker, LEAF_MARKER_TYPE } from "pi-host";
import { defaultSessionDir, sessionFilePath, sessionsRoot } from "pi-host";
import { newestFirst, newestSessionFile, summariesIn, summariesUnder } from "./list-sessions.js";
import { CURRENT_VERSION } from "./migrate-format.js";
import { openSessionFile } from "./open-file.js";
import { freshSession, openSessionState, restoreOpenSession, type OpenSession } from "./open-session.js";
import { persistSession } from "./persist.js";
import type { StoreState } from "./state.js";

/** What the plugin hands the store: where sessions live, and its reloadable state. */
export interface StoreOptions {
  agentDir: string;
  getState: () => StoreState;
  setState: (next: StoreState) => void;
  /** Told when the open session cannot be written or its file vanished (the plugin emits it on the bus). */
  report?: (problem: SessionSaveProblem) => void;
  /** The write call appends use; tests inject a failing disk here. */
  io?: AppendIo;
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
    if (options.id !== undefined && !isSessionId(options.id))
      throw new Error(`newSession: "${String(options.id)}" is not a session id (letters, digits, . _ -)`);
    const timestamp = new Date().toISOString();
    const id = options.id ?? newSessionId();
    const header: SessionHeader = { type: "session", version: CURRENT_VERSION, id, timestamp, cwd };
    if (options.parentSession !== undefined) header.parentSession = options.parentSession;
    const sessionDir = options.inMemory ? undefined : this.sessionDirFor(options);
    const path = sessionDir === undefined ? undefined : sessionFilePath(sessionDir, timestamp, header.id);
    this.switchTo(freshSession(header, path, sessionDir));
    return this.info(this.session!);
  }

  async open(path: string): Promise<OpenReport> {
    if (typeof path !== "string" || path === "") throw new Error("open needs the path of a session file");
    const { session, extras } = openSessionFile(resolve(path));
    this.switchTo(session);
    return { ...this.info(session), ...extras };
  }

  async continueRecent(options: SessionStartOptions): Promise<SessionInfo> {
    requireCwd(options, "continueRecent");
    if (options.inMemory) return this.newSession(options);
    const newest = await newestSessionFile(this.sessionDirFor(options));
    return newest === undefined ? this.newSession(options) : this.open(newest);
  }

  async list(options: { cwd?: string; sessionDir?: string } = {}): Promise<SessionSummary[]> {
    if (options.cwd !== undefined)
      return newestFirst(await summariesIn(this.sessionDirFor({ cwd: options.cwd, sessionDir: options.sessionDir })));
    if (options.sessionDir !== undefined) return newestFirst(await summariesIn(resolve(options.sessionDir)));
    return newestFirst(await summariesUnder(sessionsRoot(this.options.agentDir)));
  }

  current(): SessionInfo | undefined {
    this.ensureRestored();
    return this.session === undefined ? undefined : this.info(this.session);
  }

  // ── appending ─────────────────────────────────────────────────────────────────────────────────

  appendMessage(message: AgentMessage): string {
    if (message === null || typeof message !== "object" || typeof message.role !== "string")
      throw new Error("appendMessage needs a message with a string `role`");
    const s = this.requireSession();
    return this.commit(s, { type: "message", ...this.base(s), message });
  }

  appendModelChange(provider: string, modelId: string): string {
    if (!nonEmpty(provider) || !nonEmpty(modelId)) throw new Error("appendModelChange needs a provider and a model id");
    const s = this.requireSession();
    return this.commit(s, { type: "model_change", ...this.base(s), provider, modelId });
  }

  appendThinkingLevelChange(level: ThinkingLevel): string {
    if (!THINKING_LEVELS.includes(level))
      throw new Error(`unknown thinking level ${JSON.stringify(level)}; use one of ${THINKING_LEVELS.join(", ")}`);
    const s = this.requireSession();
    return this.commit(s, { type: "thinking_level_change", ...this.base(s), thinkingLevel: level });
  }

  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string {
    if (typeof summary !== "string") throw new Error("appendCompaction needs a summary string");
    if (typeof tokensBefore !== "number" || !Number.isFinite(tokensBefore))
      throw new Error("appendCompaction needs tokensBefore as a number");
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
    if (!nonEmpty(fromId) || typeof summary !== "string")
      throw new Error("appendBranchSummary needs the id the branch was left from and a summary string");
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

  appendCustomMessage(
    customType: string,
    content: CustomMessageEntry["content"],
    display: boolean,
    details?: unknown,
  ): string {
    if (!nonEmpty(customType)) throw new Error("appendCustomMessage needs a customType");
    if (typeof content !== "string" && !Array.isArray(content))
      throw new Error("appendCustomMessage needs content as a string or an array of text/image blocks");
    if (typeof display !== "boolean") throw new Error("appendCustomMessage needs display as a boolean");
    const s = this.requireSession();
    return this.commit(s, {
      type: "custom_message",
      customType,
      content,
      display,
      ...(details !== undefined ? { details } : {}),
      ...this.base(s),
    });
  }

  appendLabel(targetId: string, label: string | undefined): string {
    if (label !== undefined && typeof label !== "string")
      throw new Error("appendLabel needs a label string, or undefined to clear it");
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
    this.commit(s, {
      type: "custom",
      customType: LEAF_MARKER_TYPE,
      data: {},
      id: newEntryId(s.tree.ids),
      parentId: target,
      timestamp: new Date().toISOString(),
    });
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
    const forked = forkedSession(
      s,
      this.path(entryId).filter((entry) => entry.type !== "label"),
    );
    this.persist(forked);
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
    if (
      cached === undefined ||
      cached.key.tree !== key.tree ||
      cached.key.leafId !== key.leafId ||
      cached.key.size !== key.size
    ) {
      this.contextCache = { key, context: buildSessionContext(tree.rawPath(tree.leafId)) };
    }
    const { context } = this.contextCache!;
    return { ...context, messages: [...context.messages], entryIds: [...context.entryIds] };
  }

  private contextCache:
    | { key: { tree: unknown; leafId: string | null; size: number }; context: SessionContext }
    | undefined;

  /** Closes the session file's descriptor (the plugin's retire step); state keeps the session open. */
  close(): void {
    this.session?.file?.close();
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────────────

  /** Adds an entry: in memory, then on disk (one write, with any entries an earlier failure left out), then in state. */
  private commit(s: OpenSession, entry: SessionEntry): string {
    s.tree.add(entry);
    this.persist(s);
    this.saveState();
    return entry.id;
  }

  /** Writes what the file lacks (persist.ts), reporting a failed write or a vanished file. */
  private persist(s: OpenSession): void {
    persistSession(s, this.options.io, (session, reason, error) =>
      this.options.report?.({ error, path: session.path!, reason }),
    );
  }

  private base(s: OpenSession): EntryBase {
    return { id: newEntryId(s.tree.ids), parentId: s.tree.leafId, timestamp: new Date().toISOString() };
  }

  private requireSession(): OpenSession {
    this.ensureRestored();
    if (this.session === undefined)
      throw new Error("no session is open: call newSession, open or continueRecent first");
    return this.session;
  }

  private requireEntry(s: OpenSession, id: string, what: string): SessionEntry {
    const entry = typeof id === "string" ? s.tree.entry(id) : undefined;
    if (entry === undefined) throw new Error(`${what}: no entry ${JSON.stringify(id)} in session ${s.header.id}`);
    return entry;
  }

  private sessionDirFor(options: { cwd: string; sessionDir?: string }): string {
    return options.sessionDir !== undefined
      ? resolve(options.sessionDir)
      : defaultSessionDir(this.options.agentDir, options.cwd);
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
    this.options.setState(this.session === undefined ? {} : { open: openSessionState(this.session) });
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
    try {
      this.session = restoreOpenSession(open);
    } catch (error) {
      // Nothing usable to resume: say so once, and start from "no session open".
      this.options.setState({});
      throw new Error(`the session open before the reload could not be resumed: ${(error as Error).message}`);
    }
  }
}

function requireCwd(options: SessionStartOptions, method: string): string {
  if (options === null || typeof options !== "object" || !nonEmpty(options.cwd))
    throw new Error(`${method} needs options with a non-empty cwd`);
  return options.cwd;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}
