/**
 * A `TelemetrySpan` that keeps its tree in memory, for tests of the code that opens spans (the loop, the
 * router, the session) without OpenTelemetry: names, parents, attributes, events, errors, and the order
 * in which spans started and ended.
 */
import type { TelemetryAttributes, TelemetrySpan } from "../../contracts/telemetry.js";

/** One recorded span. */
export interface RecordedSpan {
  name: string;
  parent: RecordedSpan | undefined;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  error: { name: string; message: string } | undefined;
  ended: boolean;
  /** The place of its end among all ends of the log (0 first), or -1 while open. */
  endIndex: number;
}

/** The log all spans of one tree write to. */
export class SpanLog {
  readonly spans: RecordedSpan[] = [];
  /** `start:<name>` and `end:<name>` in the order they happened. */
  readonly order: string[] = [];

  /** A root span of this log. */
  root(name = "root", attributes?: TelemetryAttributes): TelemetrySpan {
    return this.open(name, attributes, undefined);
  }

  /** The spans named `name`, in start order. */
  named(name: string): RecordedSpan[] {
    return this.spans.filter((s) => s.name === name);
  }

  private open(
    name: string,
    attributes: TelemetryAttributes | undefined,
    parent: RecordedSpan | undefined,
  ): TelemetrySpan {
    const span: RecordedSpan = {
      name,
      parent,
      attributes: { ...attributes },
      events: [],
      error: undefined,
      ended: false,
      endIndex: -1,
    };
    this.spans.push(span);
    this.order.push(`start:${name}`);
    return {
      recording: true,
      startSpan: (child, childAttributes) => this.open(child, childAttributes, span),
      setAttributes: (more) => {
        if (!span.ended) Object.assign(span.attributes, more);
      },
      addEvent: (event, eventAttributes) => {
        if (!span.ended) span.events.push({ name: event, attributes: { ...eventAttributes } });
      },
      setError: (errorName, message) => {
        if (!span.ended) span.error = { name: errorName, message };
      },
      end: () => {
        if (span.ended) return;
        span.ended = true;
        span.endIndex = this.order.filter((entry) => entry.startsWith("end:")).length;
        this.order.push(`end:${name}`);
      },
    };
  }
}
