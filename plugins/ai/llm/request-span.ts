/**
 * The request span: one `pi.ai.request` per call through the router, under the caller's
 * `options.telemetry`, with pi 1.6's attribute and event names (`provider`, `api`, `model`, `reasoning`,
 * `stop`, `usage.*`, `cost.total`, `response.id`; `pi.ai.first_chunk`, `pi.ai.block`) and OpenTelemetry's
 * GenAI ones beside them (`gen_ai.provider.name`, `gen_ai.request.model`, `gen_ai.usage.*`,
 * `gen_ai.response.time_to_first_chunk`, ...). No content is recorded, only sizes. A request without a
 * recording parent gets the shared no-op observer and costs nothing.
 */
import {
  type AssistantMessage,
  type AssistantMessageEvent,
  type Model,
  NOOP_TELEMETRY_SPAN,
  type StreamOptions,
  type TelemetrySpan,
} from "pi-host";

/** Watches one request's events and ends its span. */
export interface RequestObserver {
  /** The request span, handed to the provider as its `options.telemetry`. */
  readonly span: TelemetrySpan;
  /** Every event the router passes on, in order (the final `done` or `error` included). */
  onEvent(event: AssistantMessageEvent): void;
  /** Ends the span if the final event has not already; called once the stream is over, however it ended. */
  end(): void;
}

const NOOP_OBSERVER: RequestObserver = Object.freeze({ span: NOOP_TELEMETRY_SPAN, onEvent() {}, end() {} });

/** pi provider ids that OpenTelemetry's GenAI conventions spell otherwise (`gen_ai.provider.name`). */
const GEN_AI_PROVIDER: Record<string, string> = {
  google: "gcp.gemini",
  "google-vertex": "gcp.vertex_ai",
  "amazon-bedrock": "aws.bedrock",
  "azure-openai-responses": "azure.ai.openai",
  mistral: "mistral_ai",
  xai: "x_ai",
};

/** Opens the request span for `model` under `options.telemetry` (or returns the no-op observer). */
export function observeRequest(model: Model, options: StreamOptions): RequestObserver {
  const parent = options.telemetry;
  if (parent === undefined || !parent.recording) return NOOP_OBSERVER;
  const started = performance.now();
  const providerName = GEN_AI_PROVIDER[model.provider] ?? model.provider;
  const span = parent.startSpan("pi.ai.request", {
    provider: model.provider,
    api: model.api,
    model: model.id,
    reasoning: options.reasoning,
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": providerName,
    "gen_ai.system": providerName,
    "gen_ai.request.model": model.id,
    "gen_ai.request.max_tokens": options.maxTokens,
    "gen_ai.request.temperature": options.temperature,
    "gen_ai.request.stream": true,
  });
  let first = true;
  const toolChars = new Map<number, number>();
  return {
    span,
    onEvent(event) {
      if (first) {
        first = false;
        const seconds = (performance.now() - started) / 1000;
        span.addEvent("pi.ai.first_chunk");
        span.setAttributes({ "gen_ai.response.time_to_first_chunk": Math.round(seconds * 1e6) / 1e6 });
      }
      if (event.type === "toolcall_delta") {
        toolChars.set(event.contentIndex, (toolChars.get(event.contentIndex) ?? 0) + event.delta.length);
      } else if (event.type === "text_end" || event.type === "thinking_end") {
        const type = event.type === "text_end" ? "text" : "thinking";
        span.addEvent("pi.ai.block", { type, index: event.contentIndex, chars: event.content.length });
      } else if (event.type === "toolcall_end") {
        const chars = toolChars.get(event.contentIndex) ?? 0;
        span.addEvent("pi.ai.block", {
          type: "tool_call",
          index: event.contentIndex,
          chars,
          tool: event.toolCall.name,
        });
      } else if (event.type === "done" || event.type === "error") {
        // Ended at the final event, not when the provider's stream winds down: the caller goes on at once.
        recordResult(span, event.type === "done" ? event.message : event.error);
        span.end();
      }
    },
    end: () => span.end(),
  };
}

/** The answer's usage, cost and stop reason; an `error` stop fails the span (an abort stays ok, as in pi). */
function recordResult(span: TelemetrySpan, message: AssistantMessage): void {
  const { usage } = message;
  span.setAttributes({
    stop: message.stopReason,
    "usage.input": usage.input,
    "usage.output": usage.output,
    "usage.cache_read": usage.cacheRead,
    "usage.cache_write": usage.cacheWrite,
    "cost.total": usage.cost.total,
    "response.id": message.responseId,
    "gen_ai.response.model": message.model,
    "gen_ai.response.id": message.responseId,
    "gen_ai.response.finish_reasons": [message.stopReason],
    // The conventions count cached input in the input total; pi's `usage.input` is the uncached part.
    "gen_ai.usage.input_tokens": usage.input + usage.cacheRead + usage.cacheWrite,
    "gen_ai.usage.output_tokens": usage.output,
    "gen_ai.usage.cache_read.input_tokens": usage.cacheRead,
    "gen_ai.usage.cache_creation.input_tokens": usage.cacheWrite,
  });
  if (message.stopReason === "error") {
    span.setAttributes({ "error.type": "provider_error" });
    span.setError("provider_error", (message.errorMessage ?? "").slice(0, 500));
  }
}
