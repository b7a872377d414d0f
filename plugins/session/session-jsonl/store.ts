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
import { nonEmpty, TreeSessionStore } from "pi-host";
import { resolve } from "node:path";
import type {
  OpenReport,
  SessionContext,
  SessionEntry,
  SessionHeader,
  SessionInfo,
  SessionSaveProblem,
  SessionStartOptions,
  SessionStore,
  SessionSummary,
} from "pi-host";
import type { AppendIo } from "./append-file.js";
import { ContextCache } from "./context-cache.js";
import { forkedSession } from "./fork.js";
import { isSessionId, newSessionId } from "pi-host";
import { defaultSessionDir, sessionFilePath, sessionsRoot } from "pi-host";
import { newestFirst, newestSessionFile, summariesIn, summariesUnder } from "./list-sessions.js";
import { SESSION_FORMAT_VERSION } from "pi-host";
import { openSessionFile } from "./open-file.js";
import { deleteSessionFile, renameSessionFile } from "./other-sessions.js";
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

/** pi-compatible JSONL session store. */
export class JsonlSessionStore extends TreeSessionStore<OpenSession> implements SessionStore {
  private restored = false;

  constructor(private readonly options: StoreOptions) {
    super();
  }

  // ── choosing the session ──────────────────────────────────────────────────────────────────────

  async newSession(options: SessionStartOptions): Promise<SessionInfo> {
    const cwd = requireCwd(options, "newSession");
    if (options.id !== undefined && !isSessionId(options.id))
      throw new Error(`newSession: "${String(options.id)}" is not a session id (letters, digits, . _ -)`);
    const timestamp = new Date().toISOString();
    const id = options.id ?? newSessionId();
    const header: SessionHeader = { type: "session", version: SESSION_FORMAT_VERSION, id, timestamp, cwd };
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
  header(): SessionHeader | undefined {
    this.ensureRestored();
    return this.session === undefined ? undefined : { ...this.session.header };
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

  /** Deletes a session file that is not the open one (trash first, as pi does). */
  async deleteSession(path: string): Promise<{ method: "trash" | "deleted" }> {
    const target = this.otherSessionPath(path, "deleteSession");
    if (target === undefined) throw new Error("Cannot delete the currently active session");
    return deleteSessionFile(target);
  }

  /** Names a listed session: one `session_info` line appended to its file (the open one through its own append). */
  async renameSession(path: string, name: string): Promise<void> {
    const next = typeof name === "string" ? name.trim() : "";
    if (next === "") throw new Error("renameSession needs a non-empty name");
    const target = this.otherSessionPath(path, "renameSession");
    if (target === undefined) this.appendSessionInfo(next);
    else renameSessionFile(target, next);
  }

  /** The absolute path of a session that is not the open one; undefined for the open one. */
  private otherSessionPath(path: string, method: string): string | undefined {
    if (typeof path !== "string" || path === "") throw new Error(`${method} needs the path of a session file`);
    this.ensureRestored();
    const target = resolve(path);
    const open = this.session?.path;
    return open !== undefined && resolve(open) === target ? undefined : target;
  }

  /**
   * The context from the leaf to the root; callers get their own arrays. Kept between calls (context-cache.ts):
   * a turn asks for it several times, and the entries a turn appends extend it instead of rebuilding it.
   */
  buildContext(): SessionContext {
    this.ensureRestored();
    if (this.session === undefined) return { messages: [], entryIds: [] };
    const context = this.contextCache.context(this.session.tree);
    return { ...context, messages: [...context.messages], entryIds: [...context.entryIds] };
  }

  private readonly contextCache = new ContextCache();

  /** Writes every entry now, even before pi's first flush, then fsyncs the file (a durable run's commit). */
  flush(): void {
    this.ensureRestored();
    const s = this.session;
    if (s === undefined || s.path === undefined) return;
    this.persist(s, true);
    if (s.failing) return;
    try {
      s.file?.sync();
    } catch (error) {
      this.options.report?.({
        error: `cannot sync ${s.path} to disk: ${(error as Error).message}`,
        path: s.path,
        reason: "write",
      });
    }
  }

  /** Closes the session file's descriptor (the plugin's retire step); state keeps the session open. */
  close(): void {
    this.session?.file?.close();
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────────────

  /** Adds an entry: in memory, then on disk (one write, with any entries an earlier failure left out), then in state. */
  protected commit(s: OpenSession, entry: SessionEntry): string {
    s.tree.add(entry);
    this.persist(s);
    this.saveState();
    return entry.id;
  }

  /** Writes what the file lacks (persist.ts), reporting a failed write or a vanished file. */
  private persist(s: OpenSession, force = false): void {
    persistSession(
      s,
      this.options.io,
      (session, reason, error) => this.options.report?.({ error, path: session.path!, reason }),
      force,
    );
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
  protected saveState(): void {
    this.options.setState(this.session === undefined ? {} : { open: openSessionState(this.session) });
  }

  /**
   * On the first call of a generation, re-opens the session the previous generation left in state: from
   * its file, or from the entries state carried, with the leaf where it was.
   */
  protected ensureRestored(): void {
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
