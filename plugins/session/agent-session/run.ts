/**
 * One run of the session: a prompt's turns, and what follows on its own (a retry after a transient error,
 * a compaction when the context overflowed or is full). The loop runs one turn per call, so the run can
 * stop between two turns: while a reload of this plugin waits (`ctx.safePoint`), the run parks its state
 * (the loop's RunState, the retry count, the overflow flag) as plain data in the plugin state and ends
 * here with the kernel's "moved" outcome. The next generation's `resumeRun` takes the parked state and
 * carries on, so a reload waits for one turn, not the whole run, and the caller sees one run: no turn is
 * cut, no tool call runs twice or is lost, and the events go on.
 */
import { isContextOverflow } from "pi-host";
import type { AgentMessage, LoopCaller, MovedCall, RunState, SessionEvent, Settings, TurnConfig } from "pi-host";
import { NOOP_TELEMETRY_SPAN, type TelemetrySpan } from "pi-host";
import type { SessionCompaction } from "./compaction-policy.js";
import { lastAssistant } from "./messages.js";
import { RunRetries, sessionRetryPolicy } from "./retry-policy.js";
import type { DurableHook } from "./durable.js";
import { endRunSpan } from "./run-span.js";

/** A run between two turns as plain data: the part of the plugin state that carries it across a reload. */
export interface ParkedRun {
  id: string;
  /** The loop's state after the last finished turn (agent_start has gone out, agent_end not yet). */
  loop: RunState;
  retryAttempt: number;
  overflowCompacted: boolean;
  /** The session's queues when it parked, so a steer typed during the run is not lost. */
  steering: AgentMessage[];
  followUps: AgentMessage[];
  /** Carried on after a crash (durable.ts), in a new process: agent_start goes out again. */
  afterCrash?: boolean;
}

/** How a run left this generation: over (aborted or not), or moved to the next one. */
export type RunOutcome = { aborted: boolean; moved?: undefined } | { aborted?: undefined; moved: MovedCall };

/** What a run works through; the session hands it in. */
export interface RunDeps {
  loop: LoopCaller;
  settings: () => Settings;
  autoRetry: () => boolean;
  emit: (event: SessionEvent) => void;
  compaction: SessionCompaction;
  contextWindow: () => number | undefined;
  /** The transcript a fresh loop run starts from. */
  contextMessages: () => AgentMessage[];
  /** The snapshot for one turn, with the run's abort signal and span. */
  turnConfig: (signal: AbortSignal, telemetry: TelemetrySpan) => Promise<TurnConfig>;
  /** Opens the run's root span (run-span.ts); `resumed` when a reload moved the run here. */
  runSpan: (resumed: boolean) => Promise<TelemetrySpan>;
  /** The kernel's safe point: the "moved" outcome when a reload of this plugin waits, else undefined. */
  safePoint: (runId: string) => MovedCall | undefined;
  /** Keeps a parked run in the plugin state (with the queues) for the next generation. */
  park: (parked: Omit<ParkedRun, "steering" | "followUps">) => void;
  /** Durable runs' start and end checkpoints (no-ops while off). */
  durable: Pick<DurableHook, "begin" | "end">;
}

/** One run: started from a prompt, or resumed from a parked state. */
export class SessionRun {
  readonly abort = new AbortController();
  readonly retries: RunRetries;
  private overflowCompacted: boolean;
  private span: TelemetrySpan = NOOP_TELEMETRY_SPAN;

  constructor(
    private readonly deps: RunDeps,
    readonly id: string,
    private readonly parked?: ParkedRun,
  ) {
    this.retries = new RunRetries(
      sessionRetryPolicy(deps.settings()),
      deps.autoRetry,
      deps.emit,
      parked?.retryAttempt ?? 0,
    );
    this.overflowCompacted = parked?.overflowCompacted ?? false;
  }

  /** Runs turns for `prompts` (or, resumed, from the parked loop state) inside the run's span. */
  async go(prompts: AgentMessage[]): Promise<RunOutcome> {
    if (this.parked === undefined) this.deps.durable.begin(this.id);
    this.span = await this.deps.runSpan(this.parked !== undefined);
    let outcome: RunOutcome | undefined;
    try {
      outcome = await this.play(prompts);
      if (outcome.moved === undefined) this.deps.durable.end(this.id, outcome.aborted);
      return outcome;
    } finally {
      endRunSpan(this.span, outcome);
    }
  }

  /**
   * An answer that ends in an error runs again: once after compacting when the context overflowed, else
   * as the retry policy allows. After the run, a context past the threshold is compacted.
   */
  private async play(prompts: AgentMessage[]): Promise<RunOutcome> {
    const { compaction } = this.deps;
    const { signal } = this.abort;
    let resumed = this.parked?.loop;
    let pending = prompts;
    for (;;) {
      const fresh = { messages: this.deps.contextMessages(), newMessages: [], pending, turns: 0, done: false };
      const turns = await this.turns(resumed ?? fresh, resumed !== undefined);
      if ("moved" in turns) return { moved: turns.moved };
      resumed = undefined;
      pending = [];
      const last = lastAssistant(turns.added);
      if (last === undefined || last.stopReason !== "error" || signal.aborted) break;
      if (!this.overflowCompacted && compaction.autoOn() && isContextOverflow(last, this.deps.contextWindow())) {
        this.overflowCompacted = true;
        if ((await compaction.run("overflow", { willRetry: true, signal })) !== undefined) continue;
        break;
      }
      if (!(await this.retries.again(last))) break;
    }
    this.retries.finish();
    if (compaction.autoOn() && !signal.aborted && compaction.isFull(this.deps.contextMessages()))
      await compaction.run("threshold", { signal });
    return { aborted: signal.aborted };
  }

  /**
   * The loop's turns, one call each, as `runAgent` strings them (agent_start, turns, agent_end). Between
   * two turns the kernel may ask the run to move: it parks and returns before agent_end, which the
   * generation that resumes it sends. A run aborted before it resumed runs no further turn.
   */
  private async turns(start: RunState, resumed: boolean): Promise<{ added: AgentMessage[] } | { moved: MovedCall }> {
    const { signal } = this.abort;
    let run = start;
    const first = await this.deps.turnConfig(signal, this.span);
    if (!resumed || this.parked?.afterCrash) first.emit({ type: "agent_start" });
    let moved: MovedCall | undefined;
    try {
      let config = first;
      while (!run.done && !(resumed && signal.aborted)) {
        run = await this.deps.loop.api.runTurn(run, config);
        if (run.done) break;
        moved = signal.aborted ? undefined : this.deps.safePoint(this.id);
        if (moved !== undefined) {
          this.deps.park({
            id: this.id,
            loop: run,
            retryAttempt: this.retries.attempts,
            overflowCompacted: this.overflowCompacted,
          });
          return { moved };
        }
        config = await this.deps.turnConfig(signal, this.span);
      }
    } finally {
      if (moved === undefined) first.emit({ type: "agent_end", messages: run.newMessages });
    }
    return { added: run.newMessages };
  }
}
