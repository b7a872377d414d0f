/**
 * The durable-runs provider: checkpoints as `custom` session entries, each followed by a flush of the
 * store (fsync for a file, the commit for a database), so what a mode shows next is already on disk.
 * It keeps nothing itself: the session holds every checkpoint, so any generation (or process) reads the
 * same answer from it.
 */
import { DURABLE_RUN_ENTRY } from "pi-host";
import type { AgentEvent, DurableMark, DurableRuns, Handle, InterruptedRun, SessionStore, Settings } from "pi-host";
import { findInterrupted } from "./plan.js";

/** What the provider needs: the store, the run's flags, and how many crashes in a row park a run. */
export interface DurableRunsDeps {
  store: Handle<SessionStore>;
  /** The flags the host set aside for plugins (`--durable`, `--retry-parked`). */
  flags: () => Record<string, string | boolean>;
  parkAfter: number;
}

/** Whether a flag is on: bare, or `=true`/`=1`/`=yes`. */
function flagOn(value: string | boolean | undefined): boolean {
  if (typeof value === "boolean") return value;
  return value !== undefined && ["true", "1", "yes", "on"].includes(value.toLowerCase());
}

/** Durable runs over the session store. */
export class DurableRunsService implements DurableRuns {
  constructor(private readonly deps: DurableRunsDeps) {}

  active(settings: Settings): boolean {
    return settings.durableRuns === true || flagOn(this.deps.flags().durable);
  }

  begin(runId: string): void {
    this.mark({ kind: "start", runId });
  }

  commit(runId: string, event: AgentEvent): void {
    if (event.type === "message_end" && event.message.role === "assistant") this.mark({ kind: "answer", runId });
    else if (event.type === "tool_execution_end") {
      const { result } = event;
      this.mark({
        kind: "tool",
        runId,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        content: result.content,
        ...(result.details !== undefined && { details: result.details }),
        isError: event.isError,
      });
    } else if (event.type === "message_start" && event.message.role !== "assistant") this.deps.store.api.flush();
  }

  end(runId: string, aborted: boolean): void {
    this.mark({ kind: "end", runId, aborted });
  }

  interrupted(): InterruptedRun | undefined {
    const store = this.deps.store.api;
    if (store.current() === undefined) return undefined;
    return findInterrupted(store.path(), this.deps.parkAfter, flagOn(this.deps.flags()["retry-parked"]));
  }

  resuming(run: InterruptedRun): void {
    this.mark(
      run.crashes >= this.deps.parkAfter
        ? { kind: "resume", runId: run.runId, retry: true }
        : { kind: "resume", runId: run.runId },
    );
  }

  /** Appends one checkpoint and makes it (and everything before it) durable. */
  private mark(mark: DurableMark): void {
    const store = this.deps.store.api;
    store.appendCustom(DURABLE_RUN_ENTRY, mark);
    store.flush();
  }
}
