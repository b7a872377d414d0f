/**
 * The loop's spans: one `pi.agent.turn` per turn under the run's span (`TurnConfig.telemetry`), and one
 * `pi.agent.tool` per tool call under the turn. The request span is the LLM router's, opened under the
 * turn span the loop passes in the request's options. Attribute names follow OpenTelemetry's GenAI
 * conventions (`gen_ai.tool.*`) beside pi-style `pi.*` ones; no content (arguments, results) is recorded.
 * With telemetry off every span here is `NOOP_TELEMETRY_SPAN` and no attribute bag is built.
 */
import { type AssistantMessage, NOOP_TELEMETRY_SPAN, type TelemetrySpan, type ToolCall } from "pi-host";
import type { TurnConfig } from "pi-host";

/** Opens the span of turn number `index` (1-based) under the run's span. */
export function openTurnSpan(config: TurnConfig, index: number): TelemetrySpan {
  const run = config.telemetry ?? NOOP_TELEMETRY_SPAN;
  if (!run.recording) return NOOP_TELEMETRY_SPAN;
  return run.startSpan("pi.agent.turn", {
    "pi.turn.index": index,
    "gen_ai.provider.name": config.model.provider,
    "gen_ai.request.model": config.model.id,
  });
}

/** What a turn's answer says: its stop reason and how many tool calls it made. */
export function noteAnswer(turn: TelemetrySpan, message: AssistantMessage): void {
  if (!turn.recording) return;
  const calls = message.content.filter((block) => block.type === "toolCall").length;
  turn.setAttributes({ "pi.turn.stop": message.stopReason, "pi.turn.tool_calls": calls });
  if (message.stopReason === "error") turn.setError("provider_error", (message.errorMessage ?? "").slice(0, 500));
}

/** One tool call's span and when it started. */
export interface ToolSpan {
  span: TelemetrySpan;
  started: number;
}

/** Opens the span of one tool call (from its `tool_execution_start` on) under the turn. */
export function openToolSpan(turn: TelemetrySpan, call: ToolCall): ToolSpan {
  if (!turn.recording) return { span: NOOP_TELEMETRY_SPAN, started: 0 };
  const span = turn.startSpan("pi.agent.tool", {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": call.name,
    "gen_ai.tool.call.id": call.id,
    "gen_ai.tool.type": "function",
  });
  return { span, started: performance.now() };
}

/** Ends a tool call's span with its error flag and duration (`tool_execution_end`). */
export function endToolSpan(tool: ToolSpan | undefined, outcome: { isError: boolean }): void {
  if (tool === undefined || !tool.span.recording) return;
  tool.span.setAttributes({
    "pi.tool.is_error": outcome.isError,
    "pi.tool.duration_ms": Math.round((performance.now() - tool.started) * 1000) / 1000,
  });
  // The result's text is content (a failed command's output), so only the flag is recorded.
  if (outcome.isError) tool.span.setError("tool_error", "the tool call returned an error result");
  tool.span.end();
}
