/**
 * Which session file is open and where in its tree the session stands: opening at start-up (new,
 * continue, in memory, a file, or the one a reload kept), new, switch, fork, clone and moving in the
 * tree (optionally summarizing the branch left). Every change of file is kept in the plugin state and
 * announced as `session_change`. Each change waits for start-up and is refused while a run goes on.
 */
import type { AgentMessage, Handle, Model, SessionCompactor, SessionEvent, SessionInfo, SessionStore } from "pi-host";
import { BRANCH_SUMMARY_CANCELLED } from "pi-host";
import { messageText } from "./messages.js";
import type { ModelChoice } from "./model-choice.js";
import type { SessionConfig, SessionPluginState } from "./types.js";

/** What the tree operations work with. */
export interface SessionTreeDeps {
  store: Handle<SessionStore>;
  compactor: Handle<SessionCompactor>;
  choice: ModelChoice;
  config: () => SessionConfig;
  cwd: () => string;
  saved: () => SessionPluginState;
  patchState: (patch: Partial<SessionPluginState>) => void;
  emit: (event: SessionEvent) => void;
  /** Chooses the model again (after opening another file). */
  pickModel: () => void;
  /** Resolves once the session is ready; refuses (naming `what`) while a run goes on. */
  whenIdle: (what: string) => Promise<void>;
}

/** The session-file and tree operations. */
export class SessionTree {
  /** The branch summary being written, which `abortSummary` cancels. */
  private summarizing: AbortController | undefined = undefined;

  constructor(private readonly deps: SessionTreeDeps) {}

  /** Cancels a branch summary being written: that move does not happen (pi's Esc while summarizing). */
  abortSummary(): void {
    this.summarizing?.abort();
  }

  /** At start-up: keeps the file a reload left open, else opens what `config.session` asks for. */
  async openAtStart(): Promise<void> {
    const { store } = this.deps;
    const config = this.deps.config();
    const saved = this.deps.saved();
    const open = store.api.current();
    if (open && saved.sessionPath !== undefined && open.path === saved.sessionPath) return;
    const options = { cwd: this.deps.cwd(), sessionDir: config.sessionDir };
    const choice = config.session ?? "new";
    let info: SessionInfo;
    if (saved.sessionPath !== undefined) info = await this.openReporting(saved.sessionPath);
    else if (choice === "none") info = await store.api.newSession({ ...options, inMemory: true });
    else if (choice === "continue") info = await store.api.continueRecent(options);
    else if (choice === "new") info = await store.api.newSession({ ...options, id: config.sessionId });
    else info = await this.openReporting(choice);
    this.deps.patchState({ sessionPath: info.path });
    this.deps.emit({
      type: "session_change",
      session: info,
      reason: choice === "new" || choice === "none" ? "new" : "open",
    });
  }

  /** Opens a file, reporting damaged lines set aside and entries a hand edit broke as warnings. */
  private async openReporting(path: string): Promise<SessionInfo> {
    const report = await this.deps.store.api.open(path);
    if (report.setAside) {
      this.deps.emit({
        type: "notice",
        level: "warning",
        message: `${report.setAside.lines} damaged line(s) of ${path} were set aside in ${report.setAside.file}`,
      });
    }
    for (const problem of report.problems ?? []) this.deps.emit({ type: "notice", level: "warning", message: problem });
    return report;
  }

  /** A fresh session (in memory when the current one is); the model carries over into it. */
  async newSession(options: { parentSession?: string } = {}): Promise<SessionInfo> {
    await this.deps.whenIdle("start a new session");
    const { store, choice } = this.deps;
    const current = store.api.current();
    const info = await store.api.newSession({
      cwd: this.deps.cwd(),
      sessionDir: this.deps.config().sessionDir,
      inMemory: current !== undefined && current.path === undefined,
      parentSession: options.parentSession,
    });
    this.deps.patchState({ sessionPath: info.path });
    if (choice.model) choice.apply(choice.model, choice.thinkingLevel, true);
    this.deps.emit({ type: "session_change", session: info, reason: "new" });
    return info;
  }

  /** Opens another file; its own last model wins over the one in use. */
  async switchSession(path: string): Promise<SessionInfo> {
    await this.deps.whenIdle("switch sessions");
    const info = await this.openReporting(path);
    this.deps.patchState({ sessionPath: info.path, provider: undefined, modelId: undefined, thinkingLevel: undefined });
    this.deps.pickModel();
    this.deps.emit({ type: "session_change", session: info, reason: "switch" });
    return info;
  }

  /** A new file holding the path up to the user message `entryId`; returns that message's text to edit. */
  async fork(entryId: string): Promise<{ text: string; session: SessionInfo | undefined }> {
    await this.deps.whenIdle("fork");
    const { store } = this.deps;
    const entry = store.api.entry(entryId);
    if (entry === undefined || entry.type !== "message" || entry.message.role !== "user") {
      throw new Error(`entry ${entryId} is not a user message; pick one from get_fork_messages`);
    }
    const text = messageText(entry.message);
    const info =
      entry.parentId === null
        ? await this.newSession({ parentSession: store.api.current()?.path })
        : await store.api.fork(entry.parentId);
    this.deps.patchState({ sessionPath: info?.path });
    this.deps.emit({ type: "session_change", session: info, reason: "fork" });
    return { text, session: info };
  }

  /** A new file holding the whole current path. */
  async clone(): Promise<SessionInfo> {
    await this.deps.whenIdle("clone the session");
    const info = await this.deps.store.api.fork();
    this.deps.patchState({ sessionPath: info.path });
    this.deps.emit({ type: "session_change", session: info, reason: "fork" });
    return info;
  }

  /** Moves the leaf to `entryId`; with `summarize`, the branch left is summarized by `model` first. */
  async navigate(
    entryId: string,
    options: { summarize?: boolean; instructions?: string },
    model: () => Model,
  ): Promise<void> {
    await this.deps.whenIdle("move in the tree");
    const { store, compactor } = this.deps;
    if (store.api.entry(entryId) === undefined) throw new Error(`no entry ${entryId} in this session`);
    const oldLeaf = store.api.leafId();
    if (options.summarize && oldLeaf !== null && compactor.available) {
      const target = new Set(store.api.path(entryId).map((e) => e.id));
      const leaving = store.api.path(oldLeaf).filter((e) => !target.has(e.id));
      const abort = new AbortController();
      this.summarizing = abort;
      let summary: Awaited<ReturnType<SessionCompactor["summarizeBranch"]>>;
      try {
        summary = await compactor.api.summarizeBranch(leaving, model(), {
          instructions: options.instructions,
          signal: abort.signal,
        });
      } catch (error) {
        if (abort.signal.aborted) throw new Error(BRANCH_SUMMARY_CANCELLED);
        throw error;
      } finally {
        if (this.summarizing === abort) this.summarizing = undefined;
      }
      if (abort.signal.aborted) throw new Error(BRANCH_SUMMARY_CANCELLED);
      store.api.branch(entryId);
      if (summary !== undefined) store.api.appendBranchSummary(oldLeaf, summary.summary, summary.details);
      return;
    }
    store.api.branch(entryId);
  }

  /** Names the session (`/name`); a blank name is refused. */
  rename(name: string): void {
    const trimmed = name.trim();
    if (trimmed === "") throw new Error("a session name cannot be empty");
    this.deps.store.api.appendSessionInfo(trimmed);
    this.deps.emit({ type: "session_info_changed", name: trimmed });
  }

  /** The user messages on the current path, for a fork picker. */
  forkPoints(): Array<{ entryId: string; text: string }> {
    return this.deps.store.api
      .path()
      .filter((e) => e.type === "message" && e.message.role === "user")
      .map((e) => ({ entryId: e.id, text: messageText((e as { message: AgentMessage }).message) }));
  }
}
