/**
 * One abort signal per tool call. Tools listen for abort while they run (bash on its command, grep on
 * rg); 50 parallel calls sharing the turn's signal put 50 listeners on it, and Node warns
 * (MaxListenersExceededWarning) past 10. Instead the batch adds ONE listener to the turn's signal, which
 * aborts each running call's own signal; a call's signal is dropped when the call ends and the batch's
 * listener is removed when the batch ends, so nothing is left on the turn's signal.
 */

/** A running call's signal and the function that forgets it when the call ends. */
export interface CallSignal {
  signal: AbortSignal | undefined;
  release: () => void;
}

/** The per-call signals of one batch of tool calls, all aborted when the turn's signal aborts. */
export class CallSignals {
  private readonly running = new Set<AbortController>();
  private readonly abortAll = (): void => {
    for (const controller of this.running) controller.abort(this.turnSignal?.reason);
  };

  constructor(private readonly turnSignal: AbortSignal | undefined) {
    if (turnSignal !== undefined && !turnSignal.aborted)
      turnSignal.addEventListener("abort", this.abortAll, { once: true });
  }

  /** A fresh signal for one call (already aborted when the turn is); call `release` when the call ends. */
  open(): CallSignal {
    if (this.turnSignal === undefined) return { signal: undefined, release: () => {} };
    const controller = new AbortController();
    if (this.turnSignal.aborted) controller.abort(this.turnSignal.reason);
    this.running.add(controller);
    return { signal: controller.signal, release: () => this.running.delete(controller) };
  }

  /** Removes the batch's listener from the turn's signal; call once every call of the batch has ended. */
  close(): void {
    this.turnSignal?.removeEventListener("abort", this.abortAll);
    this.running.clear();
  }
}
