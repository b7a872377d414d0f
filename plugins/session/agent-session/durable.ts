/**
 * The session's side of durable runs (the `session/durable-runs` contract, off unless its provider says
 * so). While on, a prompt or tool result is stored when it starts and an answer when it ends, and the
 * provider adds the step's checkpoint and flushes the store, all before the event goes on to any mode:
 * commit before show. When the open branch holds a run a crash interrupted, `interrupted()` turns its
 * last checkpoint into a run state the keeper carries on (run.ts): committed tool results are added,
 * never run again; calls with no committed result run again; a cut-off answer is asked for again.
 */
import type { AgentEvent, DurableRuns, Handle, SessionEvent, SessionStore, Settings } from "pi-host";
import type { ParkedRun } from "./run.js";

/** What the hook works through. */
export interface DurableHookDeps {
  durable: Handle<DurableRuns>;
  store: Handle<SessionStore>;
  settings: () => Settings;
  emit: (event: SessionEvent) => void;
}

/** Durable runs as the session sees them; every method is a no-op while durable runs are off. */
export class DurableHook {
  constructor(private readonly deps: DurableHookDeps) {}

  /** Whether the runs of this session are durable (the provider's answer over the session's settings). */
  get on(): boolean {
    const { durable } = this.deps;
    return durable.available && durable.api.active(this.deps.settings());
  }

  /**
   * Stores the message an event carries (off: every message as it ends, as pi does) and, on, commits
   * the step's checkpoint. Called before the event is emitted.
   */
  persist(event: AgentEvent, runId: string | undefined): void {
    const on = runId !== undefined && this.on;
    const whole = (message: { role: string }): boolean => on && message.role !== "assistant";
    if (event.type === "message_start" && whole(event.message)) this.deps.store.api.appendMessage(event.message);
    if (event.type === "message_end" && !whole(event.message)) this.deps.store.api.appendMessage(event.message);
    if (on) this.deps.durable.api.commit(runId, event);
  }

  /** A run starts here (not one resumed): its start checkpoint. */
  begin(runId: string): void {
    if (this.on) this.deps.durable.api.begin(runId);
  }

  /** A run is over here (not moved to the next generation): its end checkpoint. */
  end(runId: string, aborted: boolean): void {
    if (this.on) this.deps.durable.api.end(runId, aborted);
  }

  /**
   * The interrupted run of the open branch, ready to carry on, or undefined. A parked run throws its
   * one-line notice; a run whose last answer had ended it gets its end checkpoint and nothing to carry on.
   */
  interrupted(): ParkedRun | undefined {
    if (!this.on) return undefined;
    const durable = this.deps.durable.api;
    const store = this.deps.store.api;
    const found = durable.interrupted();
    if (found === undefined) return undefined;
    if (found.parked) throw new Error(found.notice);
    durable.resuming(found);
    const { plan } = found;
    if (plan.kind === "finish") {
      durable.end(found.runId, false);
      return undefined;
    }
    const rerun = plan.kind === "tools" ? plan.rerun : [];
    for (const result of plan.kind === "tools" ? plan.recovered : []) {
      store.appendMessage(result);
      store.flush();
      this.deps.emit({ type: "message_start", message: result });
      this.deps.emit({ type: "message_end", message: result });
    }
    const loop: ParkedRun["loop"] = {
      messages: store.buildContext().messages,
      newMessages: [],
      pending: [],
      turns: 1,
      done: false,
    };
    if (plan.kind === "tools" && rerun.length > 0) loop.toolsDue = { message: plan.message, callIds: rerun };
    const base = { retryAttempt: 0, overflowCompacted: false, steering: [], followUps: [] };
    return { id: found.runId, loop, ...base, afterCrash: true };
  }
}
