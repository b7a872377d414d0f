/**
 * Builds the AssistantMessage from the Messages stream, one event at a time, and tells the consumer as it
 * goes: text, thinking (with its signature, or redacted), tool calls whose arguments arrive as partial
 * JSON, usage from `message_start` and `message_delta`, and the stop reason. Anthropic numbers content
 * blocks by its own `index`; the assembler maps that to our content position.
 */
import type { RawMessageStreamEvent, StopReason as AnthropicStopReason } from "@anthropic-ai/sdk/resources/messages";
import {
  emptyUsage,
  parsePartialJson,
  parseToolArguments,
  priceUsage,
  type AssistantEventStream,
  type AssistantMessage,
  type Model,
  type StopReason,
  type ToolCall,
} from "pi-host";

/** What pi shows for thinking the provider redacted (the encrypted payload is in `thinkingSignature`). */
export const REDACTED_THINKING_TEXT = "[Reasoning redacted]";

/** The stream stopped for a reason that is not an answer (a refusal), or ended before `message_stop`. */
export class IncompleteAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IncompleteAnswerError";
  }
}

/** A content block or delta as it came off the wire; read field by field, since new types keep being added. */
type WireObject = { type: string; [field: string]: unknown };

/** Anthropic block index → our content index, and the raw JSON of a tool call's arguments so far. */
interface OpenBlock {
  contentIndex: number;
  json: string;
}

/** Turns Messages stream events into our events on `stream`, filling `message`. */
export class MessageAssembler {
  /** Whether a content event has reached the consumer (after which a failure can no longer be retried). */
  contentEmitted = false;
  private readonly open = new Map<number, OpenBlock>();
  private apiStopReason: string | null = null;
  private sawMessageStop = false;

  constructor(
    private readonly stream: AssistantEventStream,
    readonly message: AssistantMessage,
    private readonly model: Model,
  ) {}

  /** Forgets a failed attempt that emitted no content, so a retry starts clean on the same message object. */
  reset(): void {
    this.message.content = [];
    this.message.usage = emptyUsage();
    this.message.stopReason = "stop";
    delete this.message.responseId;
    this.open.clear();
    this.apiStopReason = null;
    this.sawMessageStop = false;
  }

  /** Applies one event. Unknown event and block types (server tools, citations) are ignored. */
  apply(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case "message_start":
        this.message.responseId = event.message.id;
        this.updateUsage(event.message.usage);
        return;
      case "content_block_start":
        this.startBlock(event.index, event.content_block as unknown as WireObject);
        return;
      case "content_block_delta":
        this.applyDelta(event.index, event.delta as unknown as WireObject);
        return;
      case "content_block_stop":
        this.stopBlock(event.index);
        return;
      case "message_delta":
        if (event.delta.stop_reason) this.apiStopReason = event.delta.stop_reason;
        this.updateUsage(event.usage);
        return;
      case "message_stop":
        this.sawMessageStop = true;
        return;
    }
  }

  /**
   * Ends a stream that was read to its end: sets the stop reason and emits `done`. Throws (for the
   * caller's single error path) when the stream stopped early or the model refused.
   */
  finish(): void {
    if (!this.sawMessageStop)
      throw new IncompleteAnswerError("Anthropic stream ended before message_stop (the connection closed early)");
    const reason = mapStopReason(this.apiStopReason);
    if (reason === "error") throw new IncompleteAnswerError(stopReasonError(this.apiStopReason));
    this.message.stopReason = reason;
    this.stream.push({ type: "done", reason, message: this.message });
  }

  private startBlock(index: number, block: WireObject): void {
    const content = this.message.content;
    if (block.type === "text") {
      content.push({ type: "text", text: "" });
      this.emitStart("text_start", index);
    } else if (block.type === "thinking") {
      content.push({ type: "thinking", thinking: "", thinkingSignature: "" });
      this.emitStart("thinking_start", index);
    } else if (block.type === "redacted_thinking") {
      content.push({
        type: "thinking",
        thinking: REDACTED_THINKING_TEXT,
        thinkingSignature: String(block.data ?? ""),
        redacted: true,
      });
      this.emitStart("thinking_start", index);
    } else if (block.type === "tool_use") {
      const input =
        block.input !== null && typeof block.input === "object" ? (block.input as Record<string, unknown>) : {};
      content.push({ type: "toolCall", id: String(block.id), name: String(block.name), arguments: { ...input } });
      this.emitStart("toolcall_start", index);
    }
  }

  private emitStart(type: "text_start" | "thinking_start" | "toolcall_start", index: number): void {
    const contentIndex = this.message.content.length - 1;
    this.open.set(index, { contentIndex, json: "" });
    this.contentEmitted = true;
    this.stream.push({ type, contentIndex, partial: this.message });
  }

  private applyDelta(index: number, delta: WireObject): void {
    const open = this.open.get(index);
    if (open === undefined) return;
    const block = this.message.content[open.contentIndex]!;
    const contentIndex = open.contentIndex;
    if (delta.type === "text_delta" && block.type === "text") {
      const text = String(delta.text ?? "");
      block.text += text;
      this.stream.push({ type: "text_delta", contentIndex, delta: text, partial: this.message });
    } else if (delta.type === "thinking_delta" && block.type === "thinking") {
      const thinking = String(delta.thinking ?? "");
      block.thinking += thinking;
      this.stream.push({ type: "thinking_delta", contentIndex, delta: thinking, partial: this.message });
    } else if (delta.type === "signature_delta" && block.type === "thinking") {
      block.thinkingSignature = (block.thinkingSignature ?? "") + String(delta.signature ?? "");
    } else if (delta.type === "input_json_delta" && block.type === "toolCall") {
      const json = String(delta.partial_json ?? "");
      open.json += json;
      block.arguments = parsePartialJson(open.json);
      this.stream.push({ type: "toolcall_delta", contentIndex, delta: json, partial: this.message });
    }
  }

  private stopBlock(index: number): void {
    const open = this.open.get(index);
    if (open === undefined) return;
    this.open.delete(index);
    const contentIndex = open.contentIndex;
    const block = this.message.content[contentIndex]!;
    if (block.type === "text") {
      this.stream.push({ type: "text_end", contentIndex, content: block.text, partial: this.message });
    } else if (block.type === "thinking") {
      this.stream.push({ type: "thinking_end", contentIndex, content: block.thinking, partial: this.message });
    } else {
      // Strict: broken JSON marks the call (the agent loop answers it with an error) instead of being repaired.
      if (open.json.trim() !== "") parseToolArguments(block as ToolCall, open.json);
      this.stream.push({ type: "toolcall_end", contentIndex, toolCall: block as ToolCall, partial: this.message });
    }
  }

  /** Takes every count the event carries; a proxy that omits one (null) keeps the earlier value. */
  private updateUsage(usage: {
    input_tokens?: number | null;
    output_tokens?: number | null;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  }): void {
    const target = this.message.usage;
    if (usage.input_tokens != null) target.input = usage.input_tokens;
    if (usage.output_tokens != null) target.output = usage.output_tokens;
    if (usage.cache_read_input_tokens != null) target.cacheRead = usage.cache_read_input_tokens;
    if (usage.cache_creation_input_tokens != null) target.cacheWrite = usage.cache_creation_input_tokens;
    priceUsage(target, this.model);
  }
}

/**
 * Anthropic's stop reasons in pi's terms. `pause_turn` (a server tool paused a long turn) ends the turn
 * normally so the caller can continue it; running out of context is a length stop; a refusal, a
 * safety stop or a reason this code does not know is an error.
 */
export function mapStopReason(reason: AnthropicStopReason | string | null): Exclude<StopReason, "aborted"> {
  switch (reason) {
    case null:
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
      return "stop";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "toolUse";
    default:
      return "error";
  }
}

function stopReasonError(reason: string | null): string {
  if (reason === "refusal") return "The model declined to answer (stop_reason: refusal)";
  return `Anthropic stopped for an unknown reason (stop_reason: ${String(reason)})`;
}
