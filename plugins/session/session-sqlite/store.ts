/**
 * The SQLite session store: the same tree, leaf, fork and listing behaviour as the JSONL store, with
 * each session's entries as rows of one database per session folder. Every append is one committed
 * transaction before it returns (WAL, synchronous=NORMAL), so an entry shown to the user survives a
 * crash of the process. Like pi, a new session reaches the database only once an assistant message
 * exists. A failed write keeps the entry in memory, reports once, and the next append writes it.
 */
import { forkEntries, newEntryId, nonEmpty, TreeSessionStore } from "pi-host";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { buildSessionContext, defaultSessionDir, isSessionId, newSessionId, SessionTree } from "pi-host";
import type { OpenReport, SessionContext, SessionEntry, SessionHeader, SessionInfo } from "pi-host";
import type { SessionSaveProblem, SessionStartOptions, SessionStore, SessionSummary } from "pi-host";
import { database, deleteSessionRows, parseSessionPath, readEntries, readHeader } from "./database.js";
import { sessionPath, writeEntries } from "./database.js";
import { importJsonlFile } from "./import-jsonl.js";
import { listSessions, newestSession } from "./list.js";
import type { SqliteStoreState } from "./state.js";

/** What the plugin hands the store. */
export interface SqliteStoreOptions {
  agentDir: string;
  getState: () => SqliteStoreState;
  setState: (next: SqliteStoreState) => void;
  report?: (problem: SessionSaveProblem) => void;
}

interface OpenSession {
  header: SessionHeader;
  path: string | undefined;
  sessionDir: string | undefined;
  tree: SessionTree;
  /** The header row exists. */
  written: boolean;
  /** How many of tree.entries are committed. */
  savedCount: number;
  failing: boolean;
}

/** Sessions in SQLite, behind the session store contract. */
export class SqliteSessionStore extends TreeSessionStore<OpenSession> implements SessionStore {
  private restored = false;
  private contextCache: { tree: SessionTree; leaf: string | null; size: number; context: SessionContext } | undefined;

  constructor(private readonly options: SqliteStoreOptions) {
    super();
  }

  async newSession(options: SessionStartOptions): Promise<SessionInfo> {
    const cwd = requireCwd(options, "newSession");
    if (options.id !== undefined && !isSessionId(options.id))
      throw new Error(`newSession: "${String(options.id)}" is not a session id (letters, digits, . _ -)`);
    const header: SessionHeader = {
      type: "session",
      version: 3,
      id: options.id ?? newSessionId(),
      timestamp: new Date().toISOString(),
      cwd,
    };
    if (options.parentSession !== undefined) header.parentSession = options.parentSession;
    const sessionDir = options.inMemory ? undefined : this.sessionDirFor(options);
    const path = sessionDir === undefined ? undefined : sessionPath(sessionDir, header.id);
    this.switchTo(fresh(header, path, sessionDir, new SessionTree()));
    return this.info(this.session!);
  }

  async open(path: string): Promise<OpenReport> {
    if (typeof path !== "string" || path === "") throw new Error("open needs the path of a session");
    const named = parseSessionPath(resolve(path));
    if (named !== undefined) {
      const db = database(named.file);
      const header = readHeader(db, named.id);
      if (header === undefined) {
        const fresh1 = fresh(newHeader(named.id), resolve(path), dirname(named.file), new SessionTree());
        this.switchTo(fresh1);
        return this.info(fresh1);
      }
      const entries = readEntries(db, named.id);
      const s = fresh(header, resolve(path), dirname(named.file), new SessionTree(entries));
      s.written = true;
      s.savedCount = entries.length;
      this.switchTo(s);
      return this.info(s);
    }
    const absolute = resolve(path);
    if (!existsSync(absolute)) {
      // As pi does for a path with no file: a new session, kept beside it.
      const header = newHeader(newSessionId());
      this.switchTo(fresh(header, sessionPath(dirname(absolute), header.id), dirname(absolute), new SessionTree()));
      return this.info(this.session!);
    }
    // A JSONL session file: imported into this folder's database (once; a second open finds it there).
    const imported = importJsonlFile(absolute);
    const sessionDir = defaultSessionDir(this.options.agentDir, imported.header.cwd);
    const target = sessionPath(sessionDir, imported.header.id);
    const db = database(parseSessionPath(target)!.file);
    if (readHeader(db, imported.header.id) === undefined) writeEntries(db, imported.header, imported.entries, true);
    const report: OpenReport = await this.open(target);
    const problems = [...imported.problems];
    if (imported.setAside > 0) problems.push(`${imported.setAside} torn line(s) of ${absolute} left out`);
    if (problems.length > 0) report.problems = problems;
    if (imported.migratedFrom !== undefined) report.migratedFrom = imported.migratedFrom;
    return report;
  }

  async continueRecent(options: SessionStartOptions): Promise<SessionInfo> {
    requireCwd(options, "continueRecent");
    if (options.inMemory) return this.newSession(options);
    const dir = this.sessionDirFor(options);
    const newest = newestSession(dir);
    return newest === undefined ? this.newSession(options) : this.open(sessionPath(dir, newest));
  }

  async list(options: { cwd?: string; sessionDir?: string } = {}): Promise<SessionSummary[]> {
    if (options.cwd !== undefined)
      return listSessions([this.sessionDirFor({ cwd: options.cwd, sessionDir: options.sessionDir })]);
    if (options.sessionDir !== undefined) return listSessions([resolve(options.sessionDir)]);
    return listSessions(undefined, this.options.agentDir);
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
    const path = this.path(entryId).filter((entry) => entry.type !== "label");
    const header: SessionHeader = {
      type: "session",
      version: 3,
      id: newSessionId(),
      timestamp: new Date().toISOString(),
      cwd: s.header.cwd,
    };
    if (s.path !== undefined) header.parentSession = s.path;
    const tree = new SessionTree(forkEntries(s.tree, path));
    const forked = fresh(header, s.sessionDir && sessionPath(s.sessionDir, header.id), s.sessionDir, tree);
    this.persist(forked);
    this.switchTo(forked);
    return this.info(forked);
  }

  /** Deletes a listed session that is not the open one: its rows, in one transaction. */
  async deleteSession(path: string): Promise<{ method: "trash" | "deleted" }> {
    const other = this.otherSession(path, "deleteSession");
    if (other === undefined) throw new Error("Cannot delete the currently active session");
    deleteSessionRows(other.db, other.id);
    return { method: "deleted" };
  }

  /** Names a listed session: one `session_info` row after its leaf (the open one through its own append). */
  async renameSession(path: string, name: string): Promise<void> {
    const next = typeof name === "string" ? name.trim() : "";
    if (next === "") throw new Error("renameSession needs a non-empty name");
    const other = this.otherSession(path, "renameSession");
    if (other === undefined) {
      this.appendSessionInfo(next);
      return;
    }
    const tree = new SessionTree(readEntries(other.db, other.id));
    const entry: SessionEntry = {
      type: "session_info",
      id: newEntryId(tree.ids),
      parentId: tree.leafId,
      timestamp: new Date().toISOString(),
      name: next,
    };
    writeEntries(other.db, other.header, [entry], false);
  }

  /** The database and header of a stored session that is not the open one; undefined for the open one. */
  private otherSession(path: string, method: string) {
    if (typeof path !== "string" || path === "") throw new Error(`${method} needs the path of a session`);
    this.ensureRestored();
    const target = resolve(path);
    const open = this.session?.path;
    if (open !== undefined && resolve(open) === target) return undefined;
    const named = parseSessionPath(target);
    if (named === undefined || !existsSync(named.file)) throw new Error(`no session at ${path}`);
    const db = database(named.file);
    const header = readHeader(db, named.id);
    if (header === undefined) throw new Error(`no session at ${path}`);
    return { db, id: named.id, header };
  }

  buildContext(): SessionContext {
    this.ensureRestored();
    if (this.session === undefined) return { messages: [], entryIds: [] };
    const tree = this.session.tree;
    const c = this.contextCache;
    if (c === undefined || c.tree !== tree || c.leaf !== tree.leafId || c.size !== tree.entries.length)
      this.contextCache = {
        tree,
        leaf: tree.leafId,
        size: tree.entries.length,
        context: buildSessionContext(tree.rawPath(tree.leafId)),
      };
    const { context } = this.contextCache!;
    return { ...context, messages: [...context.messages], entryIds: [...context.entryIds] };
  }

  protected commit(s: OpenSession, entry: SessionEntry): string {
    s.tree.add(entry);
    this.persist(s);
    this.saveState();
    return entry.id;
  }

  /**
   * Commits every entry now, even before the first assistant message (a durable run's commit). Each
   * commit is already durable against a crash of the process (WAL), so committing is the whole flush.
   */
  flush(): void {
    this.ensureRestored();
    const s = this.session;
    if (s !== undefined) this.persist(s, true);
  }

  /**
   * Commits what the database lacks; a new session waits for its first assistant message, as pi's files
   * do, unless `force`.
   */
  private persist(s: OpenSession, force = false): void {
    if (s.path === undefined || (!s.written && !s.tree.hasAssistant && !force)) return;
    if (s.savedCount === s.tree.entries.length && s.written) return;
    const named = parseSessionPath(s.path)!;
    try {
      writeEntries(database(named.file), s.header, s.tree.entries.slice(s.savedCount), !s.written);
      s.written = true;
      s.savedCount = s.tree.entries.length;
      s.failing = false;
    } catch (error) {
      if (s.failing) return;
      s.failing = true;
      this.options.report?.({
        error: `could not save the session to ${named.file} (${(error as Error).message}); entries are kept and written with the next append`,
        path: s.path,
        reason: "write",
      });
    }
  }

  private sessionDirFor(options: { cwd: string; sessionDir?: string }): string {
    return options.sessionDir !== undefined
      ? resolve(options.sessionDir)
      : defaultSessionDir(this.options.agentDir, options.cwd);
  }

  private switchTo(next: OpenSession): void {
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

  /** Records the open session in plugin state: the rows are re-read after a reload; uncommitted entries travel in state. */
  protected saveState(): void {
    const s = this.session;
    if (s === undefined) return this.options.setState({});
    const open: NonNullable<SqliteStoreState["open"]> = {
      header: s.header,
      leafId: s.tree.leafId,
      savedCount: s.savedCount,
      written: s.written,
    };
    if (s.path !== undefined) open.path = s.path;
    if (s.sessionDir !== undefined) open.sessionDir = s.sessionDir;
    if (s.savedCount < s.tree.entries.length) open.unwritten = s.tree.entries.slice(s.savedCount);
    this.options.setState({ open });
  }

  protected ensureRestored(): void {
    if (this.restored) return;
    this.restored = true;
    const open = this.options.getState().open;
    if (open === undefined) return;
    const header = open.header as SessionHeader;
    let committed: SessionEntry[] = [];
    if (open.path !== undefined && open.written) {
      const file = parseSessionPath(open.path)!.file;
      const db = existsSync(file) ? database(file) : undefined;
      if (db === undefined || readHeader(db, header.id) === undefined) {
        // Nothing usable to resume: say so once, and start from "no session open".
        this.options.setState({});
        throw new Error(`the session open before the reload could not be resumed: no session file at ${open.path}`);
      }
      committed = readEntries(db, header.id);
    }
    const tree = new SessionTree([...committed, ...((open.unwritten as SessionEntry[] | undefined) ?? [])]);
    if (open.leafId === null || tree.entry(open.leafId) !== undefined) tree.moveLeaf(open.leafId);
    const s = fresh(header, open.path, open.sessionDir, tree);
    s.written = open.written;
    s.savedCount = committed.length;
    this.session = s;
  }
}

function fresh(
  header: SessionHeader,
  path: string | undefined,
  sessionDir: string | undefined,
  tree: SessionTree,
): OpenSession {
  return { header, path, sessionDir, tree, written: false, savedCount: 0, failing: false };
}

function newHeader(id: string): SessionHeader {
  return { type: "session", version: 3, id, timestamp: new Date().toISOString(), cwd: process.cwd() };
}

function requireCwd(options: SessionStartOptions, method: string): string {
  if (options === null || typeof options !== "object" || !nonEmpty(options.cwd))
    throw new Error(`${method} needs options with a non-empty cwd`);
  return options.cwd;
}
