/**
 * The session's runs across generations: the claim (run-claim.ts), the run going on (run.ts), and the
 * hand-over of a run parked between two turns for a reload. The generation that parks it ends the
 * caller's call with the kernel's "moved" outcome and keeps the run (with its queues) in the plugin
 * state; the next generation adopts it at commit, claiming the session before any other call, and its
 * `resumeRun` carries it on. Whoever waited here for the run's end (idle, abort, compact) waits there.
 */
import { MovedCall } from "pi-host";
import type { AgentMessage, SessionEvent } from "pi-host";
import type { PromptQueues } from "./queue.js";
import { type ParkedRun, type RunDeps, type RunOutcome, SessionRun } from "./run.js";
import { RunClaim } from "./run-claim.js";
import type { SessionPluginState } from "./types.js";

/** What the keeper needs of the session besides what a run needs. */
export interface KeeperDeps extends Omit<RunDeps, "park"> {
  queues: PromptQueues;
  saved: () => SessionPluginState;
  patchState: (patch: Partial<SessionPluginState>) => void;
  /** Called when a run starts here: the system prompt cache starts anew. */
  onRunStart: () => void;
}

/** The claim plus the current run, and the parking and resuming of runs. */
export class RunKeeper extends RunClaim {
  /** The run going on, or the parked one this generation has adopted and not resumed yet. */
  run: SessionRun | undefined;
  /** The claim of an adopted run, until `resume` carries it on. */
  private adopted: (() => void) | undefined;
  /** The id of the run this generation parked (its queues stay here if the reload does not happen). */
  private parkedHere: string | undefined;

  constructor(
    private readonly deps: KeeperDeps,
    private readonly emit: (event: SessionEvent) => void,
  ) {
    super();
  }

  /** Runs `prompts` (or carries on `parked`) under the claim `release` until the run is over here or moves on. */
  start(release: () => void, id: string, prompts: AgentMessage[], parked?: ParkedRun): Promise<void> {
    const run = this.newRun(id, parked);
    return this.carry(release, run, run.go(prompts));
  }

  /** Carries on a run parked between two turns (by the previous generation, or by this one). */
  resume(runId: string): Promise<void> {
    this.adopt();
    const run = this.run;
    const release = this.adopted;
    if (run?.id !== runId || release === undefined) throw new Error(`no parked run ${runId} to resume`);
    this.adopted = undefined;
    this.deps.patchState({ run: undefined });
    return this.carry(release, run, run.go([]));
  }

  /**
   * Takes over a parked run (at commit, or at the first call after a reload that did not happen): claims
   * the session for it at once, so no other run starts before it resumes, and puts its queues back.
   */
  adopt(): void {
    const parked = this.deps.saved().run;
    if (parked === undefined || this.run?.id === parked.id) return;
    if (parked.id !== this.parkedHere) this.deps.queues.restore(parked);
    this.parkedHere = undefined;
    this.adopted = this.claim();
    this.run = this.newRun(parked.id, parked);
  }

  /** Queues a message; one that lands after its run parked goes with the run to the next generation. */
  queue(kind: "steering" | "followUps", message: AgentMessage): void {
    const parked = this.deps.saved().run;
    if (parked === undefined || parked.id !== this.parkedHere) this.deps.queues.push(kind, message);
    else this.deps.patchState({ run: { ...parked, [kind]: [...parked[kind], message] } });
  }

  /** After waiting for a run's end: undefined, or the "moved" outcome when the run moved on (wait there). */
  carriedOn(method: string, ...args: unknown[]): never {
    return (this.moved ? new MovedCall(method, args) : undefined) as never;
  }

  private newRun(id: string, parked?: ParkedRun): SessionRun {
    this.deps.onRunStart();
    const park = (state: Omit<ParkedRun, "steering" | "followUps">): void => {
      this.parkedHere = state.id;
      const { steering, followUps } = this.deps.queues;
      this.deps.patchState({ run: { ...state, steering: steering.snapshot(), followUps: followUps.snapshot() } });
    };
    return new SessionRun({ ...this.deps, park }, id, parked);
  }

  /**
   * Runs `run` here: then releases the claim and sends agent_settled. A run that moved on sends nothing;
   * the kernel carries the caller on to `resumeRun` in the next generation, which settles it.
   */
  private async carry(release: () => void, run: SessionRun, work: Promise<RunOutcome>): Promise<void> {
    this.run = run;
    let outcome: RunOutcome = { aborted: false };
    try {
      outcome = await work;
    } finally {
      this.run = undefined;
      this.moved = outcome.moved !== undefined;
      // Released before agent_settled goes out, so a client that prompts again on it is not refused.
      release();
      if (outcome.moved === undefined) this.emit({ type: "agent_settled", aborted: outcome.aborted });
    }
    return outcome.moved as never;
  }
}
