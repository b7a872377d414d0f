/**
 * The one file that loads OpenTelemetry, and only when telemetry is on (backend.ts imports it lazily):
 * a tracer provider with a batch span processor and the OTLP/HTTP (JSON) trace exporter. The exporter
 * reads the standard variables itself (`OTEL_EXPORTER_OTLP_ENDPOINT`, `..._TRACES_ENDPOINT`, `..._HEADERS`,
 * `..._TIMEOUT`, `..._COMPRESSION`), the provider the sampler (`OTEL_TRACES_SAMPLER`) and the processor
 * its batching (`OTEL_BSP_*`); the resource takes `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` over
 * the default service name `pi`. No global provider, propagator or context manager is registered.
 */
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { TelemetryAttributes, TelemetrySpan } from "pi-host";
import { type SpanFactory, startOtelSpan } from "./otel-span.js";

/** A running tracer: root spans, and the end that exports what is left. */
export interface Tracing {
  root(name: string, attributes?: TelemetryAttributes): TelemetrySpan;
  /** Exports the spans not sent yet and stops; resolves when the exporter is done (or gave up). */
  shutdown(): Promise<void>;
}

/** How the tracer is set up. */
export interface TracingOptions {
  /** The exporter's time limit for one export (retries included) when no `OTEL_EXPORTER_OTLP_*TIMEOUT` is set. */
  timeoutMs: number;
  /** Called with the error of every export that failed. */
  onExportFailure(error: Error | undefined): void;
}

/** `ExportResultCode.SUCCESS` of @opentelemetry/core. */
const EXPORT_SUCCESS = 0;

/** Loads the SDK and starts a tracer that exports over OTLP/HTTP. */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const [api, sdk, otlp, resources] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const env = process.env;
  const timeoutSet = Boolean(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT || env.OTEL_EXPORTER_OTLP_TIMEOUT);
  const otlpExporter = new otlp.OTLPTraceExporter(timeoutSet ? {} : { timeoutMillis: options.timeoutMs });
  const exporter: SpanExporter = {
    export(spans, done) {
      otlpExporter.export(spans, (result) => {
        if (result.code !== EXPORT_SUCCESS) options.onExportFailure(result.error);
        done(result);
      });
    },
    shutdown: () => otlpExporter.shutdown(),
    forceFlush: () => otlpExporter.forceFlush(),
  };
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": "pi" }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new sdk.BasicTracerProvider({ resource, spanProcessors: [new sdk.BatchSpanProcessor(exporter)] });
  const factory: SpanFactory = {
    tracer: provider.getTracer("pi-host"),
    contextOf: (parent) => api.trace.setSpan(api.ROOT_CONTEXT, parent),
  };
  return {
    root: (name, attributes) => startOtelSpan(factory, name, attributes),
    shutdown: () => provider.shutdown(),
  };
}
