/**
 * When to draw. A keystroke is answered at once (typing must feel instant); anything else — streamed
 * tokens, tool output — asks for a frame that is coalesced with others to at most one per `intervalMs`
 * (~16 ms, 60 frames a second), so a fast stream costs frames, not one write per token.
 */

/** Schedules frames; `draw` does the drawing and may be async (it is never run twice at once). */
export class FrameScheduler {
  private timer: NodeJS.Timeout | undefined = undefined;
  private lastFrameAt = -Infinity;
  private drawing: Promise<void> | undefined = undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly draw: () => Promise<void> | void,
    private readonly intervalMs = 16,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Draws as soon as possible (after a keystroke). */
  drawNow(): void {
    this.cancelTimer();
    void this.run();
  }

  /** Draws within `intervalMs` of the last frame, merging every request until then into one frame. */
  request(): void {
    if (this.stopped || this.timer !== undefined) return;
    const wait = Math.max(0, this.lastFrameAt + this.intervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, wait);
  }

  /** No more frames; resolves when a frame being drawn is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer();
    await this.drawing;
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async run(): Promise<void> {
    if (this.stopped) return;
    if (this.drawing !== undefined) {
      this.again = true;
      return this.drawing;
    }
    this.drawing = (async () => {
      do {
        this.again = false;
        this.lastFrameAt = this.now();
        await this.draw();
      } while (this.again && !this.stopped);
    })();
    try {
      await this.drawing;
    } finally {
      this.drawing = undefined;
    }
  }
}
