/**
 * Bounds a script's tool calls on the host side: at most `maxConcurrent` run at once (the rest wait
 * in order), at most `maxTotal` are ever admitted, and each call gets its own AbortSignal, so a flood
 * of calls never piles listeners onto one shared signal and `abortAll` stops every call at once.
 */

/** One call's work: runs with its own signal. */
export type GatedWork<T> = (signal: AbortSignal) => Promise<T>;

/** The gate of one script run. */
export class CallGate {
  private running = 0;
  private admitted = 0;
  private closed = false;
  private readonly waiting: Array<() => void> = [];
  private readonly controllers = new Set<AbortController>();

  constructor(
    private readonly maxConcurrent: number,
    private readonly maxTotal: number,
  ) {}

  /** Whether another call may be admitted (the total cap not reached, the gate open). */
  canAdmit(): boolean {
    return !this.closed && this.admitted < this.maxTotal;
  }

  /** Runs `work` when a slot frees up. Rejects at once when the gate is closed or the total cap is reached. */
  async run<T>(work: GatedWork<T>): Promise<T> {
    if (!this.canAdmit())
      throw new Error(
        this.closed
          ? "the script has ended"
          : `tool call refused: a script may make at most ${this.maxTotal} tool calls`,
      );
    this.admitted++;
    if (this.running >= this.maxConcurrent) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.closed) throw new Error("the script has ended");
    this.running++;
    const controller = new AbortController();
    this.controllers.add(controller);
    try {
      return await work(controller.signal);
    } finally {
      this.controllers.delete(controller);
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Calls running now (for tests and details). */
  get inFlight(): number {
    return this.running;
  }

  /** Ends the gate: waiting calls are dropped, running ones aborted. */
  abortAll(): void {
    this.closed = true;
    for (const release of this.waiting.splice(0)) release();
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
  }
}
