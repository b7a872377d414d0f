/**
 * The soak's headless interactive mode: it drives the tui's view through its contract as the interactive
 * mode does — every call in order, one at a time, frames coalesced to at most one per `frameMs` — and
 * keeps the last frame, the frame count and any call failure (a failure is counted, never thrown).
 */

/** A call queue and frame scheduler over the handle `view`, drawing frames of `viewSize` ({ width, height }). */
export function createViewShell(view, viewSize, frameMs) {
  const shell = {
    chain: Promise.resolve(),
    errors: [],
    frames: 0,
    lastFrame: undefined,
    frameTimer: undefined,
    enqueue(step) {
      this.chain = this.chain.then(step).then(
        () => undefined,
        (error) => void this.errors.push(error?.message ?? String(error)),
      );
      return this.chain;
    },
    requestFrame() {
      if (this.frameTimer !== undefined) return;
      this.frameTimer = setTimeout(() => {
        this.frameTimer = undefined;
        this.enqueue(() => this.draw());
      }, frameMs);
    },
    async draw() {
      this.lastFrame = await view.call("render", viewSize.width, viewSize.height);
      this.frames++;
    },
    /** Draws a last frame and waits until every queued call is done; no timer is left behind. */
    async settle() {
      clearTimeout(this.frameTimer);
      this.frameTimer = undefined;
      await this.enqueue(() => this.draw());
    },
  };
  return shell;
}
