/**
 * Streams partial output without flooding the consumer: the first change goes out at once, later ones
 * at most every `intervalMs` (pi uses 100 ms), and a pending change is never lost — it goes out when the
 * interval ends or at `flush()`.
 */

/** Calls `emit` for changes, throttled. */
export class ThrottledUpdates {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private lastEmitAt = 0;

  constructor(
    private readonly emit: () => void,
    private readonly intervalMs = 100,
  ) {}

  /** Notes a change; emits now or schedules one emission. */
  changed(): void {
    this.dirty = true;
    const wait = this.intervalMs - (Date.now() - this.lastEmitAt);
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  /** Emits a pending change now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    this.lastEmitAt = Date.now();
    this.emit();
  }

  /** Drops any pending change and its timer. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty = false;
  }
}
