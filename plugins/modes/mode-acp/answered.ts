/**
 * Knows which client requests are still unanswered on the wire. Closing an SDK connection drops the
 * messages it has not written yet, so a run that stops while a prompt is finishing must first wait until
 * that prompt's answer ("cancelled") has actually gone out; this wraps the connection's message stream
 * and counts requests in and responses out.
 */
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";

/** A message stream that reports when every request received so far has had its response written. */
export class AnswerTracker {
  private readonly open = new Set<string | number>();
  private waiters: Array<() => void> = [];

  /** `stream` with requests and responses counted as they pass. */
  wrap(stream: Stream): Stream {
    const readable = stream.readable.pipeThrough(
      new TransformStream<AnyMessage, AnyMessage>({
        transform: (message, controller) => {
          const m = message as Record<string, unknown>;
          if ("method" in m && (typeof m.id === "string" || typeof m.id === "number")) this.open.add(m.id);
          controller.enqueue(message);
        },
      }),
    );
    const writable = new WritableStream<AnyMessage>({
      write: async (message) => {
        const writer = stream.writable.getWriter();
        try {
          await writer.write(message);
        } finally {
          writer.releaseLock();
        }
        const m = message as Record<string, unknown>;
        if (!("method" in m) && (typeof m.id === "string" || typeof m.id === "number") && this.open.delete(m.id))
          this.wake();
      },
    });
    return { readable, writable };
  }

  /** Resolves once no received request is waiting for its response to be written. */
  answered(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    if (this.open.size > 0) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const resolve of waiting) resolve();
  }
}
