/**
 * The writer JSON and RPC modes put their records through. It shapes session events (wire-events.ts)
 * and merges the deltas a stream produces in quick succession. Consecutive `text_delta`,
 * `thinking_delta` or `toolcall_delta` updates of the same content block go out as one update whose
 * `delta` is their concatenation and whose `usage` is the latest. A client that appends deltas rebuilds
 * the same text from fewer, larger lines.
 *
 * Why merge, and when a merged line goes out: every `message_update` line carries pi 1.6.0's top-level
 * `usage` (about 150 bytes) and its envelope (about 90), while one token's delta is a few bytes, so a line
 * per token is ~97% overhead; pi 1.6.0 writes exactly that, 536 KB for a 2,000-token answer. A line waits
 * at least DELTA_WINDOW_MS after its first delta, then goes out once it holds DELTA_MIN_COUNT deltas, and
 * at the latest DELTA_MAX_WAIT_MS after its first. A fast stream (100 tokens/s) thus goes out every
 * 40 ms as before; a slow one (20 tokens/s, where a 40 ms window would hold one token) goes out every
 * third token, so a 2,000-token answer stays near 200 KB at any rate a model streams at. Any other
 * record flushes the pending delta first, so the order of records never changes. `--compat-events`
 * output is written one event per line, unmerged.
 */
import type { SessionEvent } from "../../contracts/agent-session.js";
import { eventRecord, type WireMessageUpdate } from "./wire-events.js";

/** How long a delta waits at least for the next ones of its block (a little over one 30 fps frame). */
export const DELTA_WINDOW_MS = 40;
/** How many deltas a line holds before it goes out, once DELTA_WINDOW_MS has passed. */
export const DELTA_MIN_COUNT = 3;
/** How long a delta waits at most, however few came after it. */
export const DELTA_MAX_WAIT_MS = 250;

const MERGEABLE = new Set(["text_delta", "thinking_delta", "toolcall_delta"]);

/** Options for one stream of records. */
export interface WireStreamOptions {
  /** pi 0.73's shapes, one event per line. */
  compatEvents: boolean;
  /** Overrides DELTA_WINDOW_MS (0 writes every delta at once). */
  windowMs?: number;
  /** Overrides DELTA_MIN_COUNT. */
  minCount?: number;
  /** Overrides DELTA_MAX_WAIT_MS. */
  maxWaitMs?: number;
}

/** The delta line being gathered: the record, when its first delta came, and how many it holds. */
interface Pending {
  record: WireMessageUpdate;
  since: number;
  count: number;
}

/** One output stream's writer: events shaped and deltas merged; every other record in order. */
export class WireStream {
  private pending: Pending | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly windowMs: number;
  private readonly minCount: number;
  private readonly maxWaitMs: number;

  /** `write` gets each record, whole, in output order. */
  constructor(
    private readonly write: (record: unknown) => void,
    private readonly options: WireStreamOptions,
  ) {
    this.windowMs = options.windowMs ?? DELTA_WINDOW_MS;
    this.minCount = options.minCount ?? DELTA_MIN_COUNT;
    this.maxWaitMs = Math.max(this.windowMs, options.maxWaitMs ?? DELTA_MAX_WAIT_MS);
  }

  /** Writes a session event; a delta may wait (see the file's comment) to merge with the next ones. */
  event(event: SessionEvent): void {
    const record = eventRecord(event, this.options.compatEvents);
    if (this.options.compatEvents || this.windowMs <= 0 || !isMergeable(record)) {
      this.record(record);
      return;
    }
    const pending = this.pending;
    if (pending !== undefined && sameBlock(pending.record, record)) {
      pending.record.assistantMessageEvent.delta =
        String(pending.record.assistantMessageEvent.delta) + String(record.assistantMessageEvent.delta);
      pending.record.usage = record.usage;
      pending.count++;
      if (pending.count >= this.minCount && performance.now() - pending.since >= this.windowMs) this.flush();
      return;
    }
    this.flush();
    this.pending = { record, since: performance.now(), count: 1 };
    this.schedule(this.windowMs);
  }

  /** Writes any other record (a response, a header), after the pending delta. */
  record(record: unknown): void {
    this.flush();
    this.write(record);
  }

  /** Writes the pending delta now (before the stream ends, or before another record). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (pending !== undefined) this.write(pending.record);
  }

  /** At the window's end the line goes out if it holds enough deltas; otherwise at the latest wait. */
  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const pending = this.pending;
      if (pending === undefined) return;
      const waited = performance.now() - pending.since;
      if (pending.count >= this.minCount || waited >= this.maxWaitMs - 1) this.flush();
      else this.schedule(this.maxWaitMs - waited);
    }, delayMs);
    this.timer.unref?.();
  }
}

function isMergeable(record: unknown): record is WireMessageUpdate {
  const update = record as Partial<WireMessageUpdate>;
  return (
    update.type === "message_update" &&
    MERGEABLE.has(String(update.assistantMessageEvent?.type)) &&
    typeof update.assistantMessageEvent?.delta === "string"
  );
}

function sameBlock(a: WireMessageUpdate, b: WireMessageUpdate): boolean {
  return (
    a.assistantMessageEvent.type === b.assistantMessageEvent.type &&
    a.assistantMessageEvent.contentIndex === b.assistantMessageEvent.contentIndex
  );
}
