/**
 * A `TelemetrySpan` over an OpenTelemetry span. The parent is always the span object itself (a context
 * built from ROOT_CONTEXT holding it), never the active context, so no context manager is registered and
 * nothing here reads or sets a global. Types only are imported from the SDK: the modules come in
 * through otel.ts, the one file that loads them.
 */
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { TelemetryAttributes, TelemetrySpan } from "pi-host";

/** What a span needs of the loaded API module: a context that names a parent explicitly. */
export interface SpanFactory {
  tracer: Tracer;
  /** A context whose span is `parent` (`trace.setSpan(ROOT_CONTEXT, parent)`). */
  contextOf(parent: Span): Context;
}

/** `SpanStatusCode.ERROR` of @opentelemetry/api, spelled out so this file loads no module of it. */
const STATUS_ERROR = 2;

/** Starts a span under `parent` (a root when undefined) and wraps it. */
export function startOtelSpan(
  factory: SpanFactory,
  name: string,
  attributes: TelemetryAttributes | undefined,
  parent?: Span,
): TelemetrySpan {
  const context = parent === undefined ? undefined : factory.contextOf(parent);
  const span = factory.tracer.startSpan(name, { attributes: defined(attributes) }, context);
  return wrap(factory, span);
}

function wrap(factory: SpanFactory, span: Span): TelemetrySpan {
  let ended = false;
  return {
    // An unsampled span (OTEL_TRACES_SAMPLER) records nothing, and neither do its children.
    recording: span.isRecording(),
    startSpan: (name, attributes) => startOtelSpan(factory, name, attributes, span),
    setAttributes(attributes) {
      if (!ended) span.setAttributes(defined(attributes) ?? {});
    },
    addEvent(name, attributes) {
      if (!ended) span.addEvent(name, defined(attributes));
    },
    setError(name, message) {
      if (ended) return;
      span.setAttribute("error.type", name);
      span.setStatus({ code: STATUS_ERROR, message });
    },
    end() {
      if (ended) return;
      ended = true;
      span.end();
    },
  };
}

/** The bag without its undefined members (OpenTelemetry would log each as an invalid value). */
function defined(attributes: TelemetryAttributes | undefined): Attributes | undefined {
  if (attributes === undefined) return undefined;
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes))
    if (value !== undefined) out[key] = value as Attributes[string];
  return out;
}
