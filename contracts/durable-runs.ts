/**
 * Durable runs: commit before show, a checkpoint per step, and resuming a run a crash interrupted. The
 * agent session asks this contract's provider before it shows any event of a run, and when a session
 * opens whether its branch holds a run that never ended. Checkpoints are `custom` session entries
 * (`customType` DURABLE_RUN_ENTRY), which pi 1.6.0 keeps in the tree and leaves out of the model's context.
 */
import { defineContract } from "../kernel/index.js";
import type { AgentEvent } from "./agent.js";
import type { AssistantMessage, ToolResultMessage } from "./ai/index.js";
import type { Settings } from "./resources.js";

/** The `customType` of every checkpoint entry. */
export const DURABLE_RUN_ENTRY = "durable-run";

/** One checkpoint, the `data` of a DURABLE_RUN_ENTRY custom entry. */
export type DurableMark =
  | { kind: "start"; runId: string }
  /** A model answer of the run is committed (the message entry just before). */
  | { kind: "answer"; runId: string }
  /** A tool call's result is committed, ahead of its tool-result message (written once the batch ends). */
  | {
      kind: "tool";
      runId: string;
      toolCallId: string;
      toolName: string;
      content: ToolResultMessage["content"];
      details?: unknown;
      isError: boolean;
    }
  /** A resume after a crash started; `retry` when `--retry-parked` forced a parked run on. */
  | { kind: "resume"; runId: string; retry?: boolean }
  | { kind: "end"; runId: string; aborted: boolean };

/** Where an interrupted run goes on from. */
export type ResumePlan =
  /** Its last answer had ended it; only the end checkpoint is missing. */
  | { kind: "finish" }
  /** Ask the model (again): the last committed step is a prompt or tool results, or the answer failed. */
  | { kind: "answer" }
  /**
   * The last answer's tool calls are not all answered: `recovered` are results committed as checkpoints
   * whose messages are missing (to be added, never run again), `rerun` the calls to run again.
   */
  | { kind: "tools"; message: AssistantMessage; recovered: ToolResultMessage[]; rerun: string[] };

/** A run on the open branch that started and never ended. */
export interface InterruptedRun {
  runId: string;
  /** Crashes in a row: interruptions with no step committed in between. */
  crashes: number;
  /** Crashed too often in a row to be resumed without `--retry-parked`. */
  parked: boolean;
  /** One line for the user when parked: what happened and what to do. */
  notice: string;
  plan: ResumePlan;
}

/** What the agent session asks of durable runs; everything is synchronous, inside the event path. */
export interface DurableRuns {
  /** Whether runs are durable here: the `durableRuns` setting or the `--durable` flag. */
  active(settings: Settings): boolean;
  /** A run starts: its start checkpoint is committed. */
  begin(runId: string): void;
  /**
   * Called for every event of a run after the session stored its message and before any mode sees it:
   * adds the step's checkpoint (an answer, a tool result) and flushes the store.
   */
  commit(runId: string, event: AgentEvent): void;
  /** The run is over (or aborted): its end checkpoint is committed. */
  end(runId: string, aborted: boolean): void;
  /** The open branch's interrupted run, if any. */
  interrupted(): InterruptedRun | undefined;
  /** A resume of `run` starts (counted toward parking; `--retry-parked` starts the count over). */
  resuming(run: InterruptedRun): void;
}

/** Stateless over the session store: one provider, swapped at any time. */
export const DurableRunsContract = defineContract<DurableRuns>({
  id: "session/durable-runs",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { active: "function", begin: "function", commit: "function", end: "function", interrupted: "function" },
  methods: {
    active: "sync",
    begin: "sync",
    commit: "sync",
    end: "sync",
    interrupted: "sync",
    resuming: "sync",
  },
});
