/**
 * The writer JSON and RPC modes put their records through. It shapes session events (wire-events.ts)
 * and merges the deltas a stream produces in quick succession. Consecutive `text_delta`,
 * `thinking_delta` or `toolcall_delta` updates of the same content block that arrive within
 * DELTA_WINDOW_MS of the first one go out as one update whose `delta` is their concatenation and whose
 * `usage` is the latest. A client that appends deltas rebuilds the same text from fewer, larger lines.
 * pi 1.6.0 writes one line per provider chunk, and 180 bytes of `usage` ride on each, so its output for
 * a 2,000-token answer is about 480 KB. Any other record flushes the pending delta first, so the order
 * of records never changes. `--compat-events` output is written one event per line, unmerged.
 */
import type { SessionEvent } from "../../contracts/agent-session.js";
import { eventRecord, type WireMessageUpdate } from "./wire-events.js";

/** How long a delta may wait for the next ones of its block (a little over one 30 fps frame). */
export const DELTA_WINDOW_MS = 40;

const MERGEABLE = new Set(["text_delta", "thinking_delta", "toolcall_delta"]);

/** Options for one stream of records. */
export interface WireStreamOptions {
  /** pi 0.73's shapes, one event per line. */
  compatEvents: boolean;
  /** Overrides DELTA_WINDOW_MS (0 writes every delta at once). */
  windowMs?: number;
}

/** One output stream's writer: events shaped and deltas merged; every other record in order. */
export class WireStream {
  private pending: WireMessageUpdate | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly windowMs: number;

  /** `write` gets each record, whole, in output order. */
  constructor(
    private readonly write: (record: unknown) => void,
    private readonly options: WireStreamOptions,
  ) {
    this.windowMs = options.windowMs ?? DELTA_WINDOW_MS;
  }

  /** Writes a session event; a delta may wait up to the window to merge with the next ones. */
  event(event: SessionEvent): void {
    const record = eventRecord(event, this.options.compatEvents);
    if (this.options.compatEvents || this.windowMs <= 0 || !isMergeable(record)) {
      this.record(record);
      return;
    }
    const pending = this.pending;
    if (pending !== undefined && sameBlock(pending, record)) {
      pending.assistantMessageEvent.delta =
        String(pending.assistantMessageEvent.delta) + String(record.assistantMessageEvent.delta);
      pending.usage = record.usage;
      return;
    }
    this.flush();
    this.pending = record;
    this.timer = setTimeout(() => this.flush(), this.windowMs);
    this.timer.unref?.();
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
    if (pending !== undefined) this.write(pending);
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
