/**
 * Telemetry: spans over a run. A span is handed down explicitly — the session opens a run's root span
 * through this contract and passes it in the turn's config; the loop opens the turn under it and passes
 * the turn span in the request's `StreamOptions.telemetry` and to the tools it runs; the LLM router
 * opens the request span under that. Nothing is kept in async-local storage or any global, so a span's
 * parent is the one its caller named. With no telemetry plugin (or one that is off) every caller holds
 * `NOOP_TELEMETRY_SPAN`, whose methods do nothing and whose children are itself.
 */
import { defineContract } from "../kernel/index.js";

/** One attribute value, as OpenTelemetry takes it; `undefined` members of a bag are skipped. */
export type TelemetryValue = string | number | boolean | readonly string[] | readonly number[] | readonly boolean[];

/** A bag of span or event attributes. */
export type TelemetryAttributes = Readonly<Record<string, TelemetryValue | undefined>>;

/**
 * One open span. Unlike pi's callback-shaped `startSpan`, the caller ends it, because a streamed answer
 * or a tool call ends somewhere else than where it began. Calls after `end` are ignored.
 */
export interface TelemetrySpan {
  /** False for the no-op span: callers may skip building attributes nobody records. */
  readonly recording: boolean;
  /** Opens a child of this span. */
  startSpan(name: string, attributes?: TelemetryAttributes): TelemetrySpan;
  /** Merges attributes; a later value replaces an earlier one. */
  setAttributes(attributes: TelemetryAttributes): void;
  /** A point in time during the span. */
  addEvent(name: string, attributes?: TelemetryAttributes): void;
  /** Marks the span failed (the span otherwise ends `ok`); `name` is the error's kind, e.g. `provider_error`. */
  setError(name: string, message: string): void;
  /** Ends the span; the first call wins. */
  end(): void;
}

const noop = (): void => {};

/** The span of "no telemetry": records nothing, costs one property read, and its children are itself. */
export const NOOP_TELEMETRY_SPAN: TelemetrySpan = Object.freeze({
  recording: false,
  startSpan: (): TelemetrySpan => NOOP_TELEMETRY_SPAN,
  setAttributes: noop,
  addEvent: noop,
  setError: noop,
  end: noop,
});

/** The telemetry backend: where root spans come from. Exporting and flushing are its own business. */
export interface Telemetry {
  /**
   * Opens a root span (one per run). Async because the first call decides whether telemetry is on and,
   * when it is, loads the exporter; when it is off this resolves to `NOOP_TELEMETRY_SPAN`.
   */
  startRoot(name: string, attributes?: TelemetryAttributes): Promise<TelemetrySpan>;
}

/** One backend per host; stateless for its callers, so a reload never waits. */
export const TelemetryContract = defineContract<Telemetry>({
  id: "telemetry",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { startRoot: "function" },
  methods: { startRoot: "async" },
});
