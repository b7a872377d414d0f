/**
 * Whether the session is working: a prompt or a manual compaction claims it, and its end releases it.
 * A second prompt while claimed is refused (or queued), and `idle()` waits for every claim to end.
 */

/** The session's one claim at a time. */
export class RunClaim {
  private current: Promise<void> | undefined;
  /**
   * The last claim ended because its run moved to the next generation (run.ts), not because it is over:
   * whoever waited for its end goes on waiting there. Cleared by the next claim.
   */
  moved = false;

  /** Whether a run (or a manual compaction) is going on. */
  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Marks a run as going on; the returned function ends it (once) and wakes whoever waits. */
  claim(): () => void {
    this.moved = false;
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (finish = resolve));
    this.current = running;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (this.current === running) this.current = undefined;
      finish();
    };
  }

  /** Runs `work` under a claim of its own, released when it settles (a manual compaction). */
  async holding<T>(work: () => Promise<T>): Promise<T> {
    const release = this.claim();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Resolves when the current claim ends (at once when there is none). */
  async ended(): Promise<void> {
    await this.current;
  }

  /** Resolves when no claim is left, including claims made while waiting. */
  async idle(): Promise<void> {
    while (this.current !== undefined) await this.current;
  }
}
