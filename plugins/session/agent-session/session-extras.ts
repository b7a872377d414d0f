/**
 * The `agent/session` operations pi 1.6.0's `/import` and `/scoped-models` need, on top of the
 * orchestrator (session.ts is kept to its size): importing a session JSONL file (copied next to the
 * current session, then switched to, announced by a notice), the session's model scope, which Ctrl+P cycles
 * through, recording a message outside a run, and the system prompt the next request would carry (pi's
 * `getSystemPrompt`).
 */
import { constants, copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { randomUUID } from "node:crypto";
import { basename, dirname, join, parse, resolve } from "node:path";
import { type AgentMessage, type AgentSession, NOOP_TELEMETRY_SPAN, SESSION_EVENT, type SessionInfo } from "pi-host";
import { replaceMessage } from "./loop-hooks.js";
import { SessionOrchestrator } from "./session.js";

/** The orchestrator with every `agent/session` method: what the plugin provides. */
export class AgentSessionService extends SessionOrchestrator implements AgentSession {
  async importSession(path: string): Promise<SessionInfo | undefined> {
    await this.whenIdle("import a session");
    const source = resolve(this.cwd(), path.startsWith("~/") ? join(homedir(), path.slice(2)) : path);
    if (!existsSync(source)) throw new Error(`File not found: ${source}`);
    const current = this.deps.store.api.current()?.path;
    if (current === undefined)
      throw new Error("this session is kept in memory only (--no-session); start pi with a session to import into");
    const folder = dirname(current);
    mkdirSync(folder, { recursive: true });
    const inPlace = join(folder, basename(source)) === source;
    const target = inPlace ? source : freeName(folder, basename(source));
    const copied = !inPlace;
    if (copied) copyFileSync(source, target, constants.COPYFILE_EXCL);
    try {
      const info = await this.switchSession(target);
      // After session_change on the same bus, so a front end that rebuilds its transcript on it keeps this.
      this.deps.ctx.emit(SESSION_EVENT, { type: "notice", level: "info", message: `Session imported from: ${path}` });
      return info;
    } catch (error) {
      // The import did not happen: leave no stray copy behind.
      if (copied) rmSync(target, { force: true });
      throw error;
    }
  }

  /** Adds a message to the session outside a run (an extension's `sendMessage`), once no run goes on. */
  async recordMessage(message: AgentMessage): Promise<void> {
    await this.ready();
    this.runs.adopt();
    await this.runs.idle();
    if (this.runs.moved) return this.runs.carriedOn("recordMessage", message);
    this.emit({ type: "message_start", message });
    // A hook may replace the message before it is saved, as in a run (pi's message_end handlers).
    const final = (await replaceMessage(this.deps.hooks, message)) ?? message;
    this.deps.store.api.appendMessage(final);
    this.emit({ type: "message_end", message: final });
  }

  /** A durable run a crash interrupted, carried on at a front end's start (prompt does it on its own). */
  async resumeInterrupted(): Promise<void> {
    await this.ready();
    this.runs.adopt();
    if (!this.runs.busy) await this.resumeCrashed();
  }

  /** The next turn's snapshot, assembled as a run would (tools, resources), without running anything. */
  async systemPrompt(): Promise<string> {
    await this.ready();
    return (await this.turnConfig(new AbortController().signal, NOOP_TELEMETRY_SPAN)).systemPrompt;
  }

  /** A run from the context as it stands (no new prompt); refused while one goes on, as `prompt` is. */
  async continueRun(): Promise<void> {
    await this.ready();
    this.runs.adopt();
    if (this.runs.busy) throw new Error("the agent is already working; wait until it is done");
    const release = this.runs.claim();
    try {
      this.choice.required();
      return await this.runs.start(release, randomUUID(), []);
    } finally {
      release();
    }
  }

  scopedModels(): string[] {
    return this.choice.scoped.map((s) => `${s.model.provider}/${s.model.id}`);
  }

  /** Counts scope changes, so one that resolves after a later one does not overwrite it. */
  private scopeChanges = 0;

  async setScopedModels(patterns: readonly string[] | null): Promise<void> {
    const change = ++this.scopeChanges;
    await this.ready();
    const available = patterns === null || patterns.length === 0 ? [] : await this.deps.llm.api.available();
    if (change !== this.scopeChanges) return;
    this.choice.scoped = available.length === 0 ? [] : this.deps.models.api.scope(patterns ?? [], available).models;
  }
}

/** `name` in `folder`, or `name-1`, `name-2`... (before the extension) when taken, as pi names imports. */
export function freeName(folder: string, name: string): string {
  let target = join(folder, name);
  if (existsSync(target)) {
    const { name: stem, ext } = parse(target);
    for (let n = 1; existsSync(target); n++) target = join(folder, `${stem}-${n}${ext}`);
  }
  return target;
}
