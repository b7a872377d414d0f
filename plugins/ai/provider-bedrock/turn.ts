/**
 * Builds one assistant message from ConverseStream events and emits the matching stream events. Text
 * and reasoning blocks begin with their first delta (Bedrock sends no start for them); tool calls begin
 * with contentBlockStart and stream their JSON input in pieces. Blocks are tracked by Bedrock's
 * contentBlockIndex, so interleaved blocks land in the right place.
 */
import type { ConverseStreamOutput, TokenUsage } from "@aws-sdk/client-bedrock-runtime";
import {
  emptyUsage,
  parsePartialJson,
  parseToolArguments,
  priceUsage,
  type AssistantEventStream,
  type AssistantMessage,
  type AssistantMessageEvent,
  type Model,
  type StopReason,
} from "pi-host";
import { BedrockRequestError } from "./errors.js";

/** Shown in place of reasoning that Bedrock sent encrypted. */
const REDACTED_PLACEHOLDER = "[Reasoning redacted]";

/** A block still receiving deltas. */
interface OpenBlock {
  contentIndex: number;
  /** Tool input JSON so far. */
  json?: string;
  /** Encrypted reasoning pieces, joined into the signature when the block ends. */
  redacted?: Uint8Array[];
}

/** The exceptions Bedrock can send inside the stream, with the prefix pi 1.6 gives their messages. */
const STREAM_EXCEPTIONS = {
  internalServerException: ["Internal server error", 500],
  modelStreamErrorException: ["Model stream error", 424],
  validationException: ["Validation error", 400],
  throttlingException: ["Throttling error", 429],
  serviceUnavailableException: ["Service unavailable", 503],
} as const;

/** Accumulates one answer into `message`. */
export class BedrockTurn {
  /** Whether any content event reached the consumer (after that, a failed attempt cannot be retried). */
  emittedContent = false;
  private readonly open = new Map<number, OpenBlock>();
  private stopReason: string | undefined;

  constructor(
    private readonly model: Model,
    private readonly message: AssistantMessage,
    private readonly events: AssistantEventStream,
  ) {}

  /** Forgets what a failed attempt that emitted no content left behind. */
  resetForRetry(): void {
    this.message.usage = emptyUsage();
    this.stopReason = undefined;
    this.open.clear();
  }

  /** Takes one stream event; throws the exceptions Bedrock reports inside the stream. */
  accept(event: ConverseStreamOutput): void {
    if (event.contentBlockStart) {
      const toolUse = event.contentBlockStart.start?.toolUse;
      if (toolUse) this.startToolCall(event.contentBlockStart.contentBlockIndex ?? 0, toolUse.toolUseId, toolUse.name);
    } else if (event.contentBlockDelta) {
      this.delta(event.contentBlockDelta.contentBlockIndex ?? 0, event.contentBlockDelta.delta);
    } else if (event.contentBlockStop) {
      this.stop(event.contentBlockStop.contentBlockIndex ?? 0);
    } else if (event.messageStop) {
      this.stopReason = event.messageStop.stopReason;
    } else if (event.metadata?.usage) {
      this.setUsage(event.metadata.usage);
    } else {
      for (const [key, [prefix, status]] of Object.entries(STREAM_EXCEPTIONS)) {
        const exception = (event as unknown as Record<string, { message?: string } | undefined>)[key];
        if (exception !== undefined)
          throw new BedrockRequestError(`${prefix}: ${exception.message ?? "no details"}`, { status });
      }
    }
  }

  /** Closes blocks the stream left open and says how the turn ended; throws when it ended abnormally. */
  finish(): Exclude<StopReason, "error" | "aborted"> {
    for (const index of [...this.open.keys()]) this.stop(index);
    switch (this.stopReason) {
      case "end_turn":
      case "stop_sequence":
        return this.message.content.some((b) => b.type === "toolCall") ? "toolUse" : "stop";
      case "max_tokens":
      case "model_context_window_exceeded":
        return "length";
      case "tool_use":
        return "toolUse";
      case undefined:
        throw new Error("Bedrock stream ended without a stop reason");
      default:
        throw new Error(`Provider stopped with: ${this.stopReason}`);
    }
  }

  private startToolCall(index: number, id: string | undefined, name: string | undefined): void {
    this.message.content.push({ type: "toolCall", id: id ?? "", name: name ?? "", arguments: {} });
    const contentIndex = this.message.content.length - 1;
    this.open.set(index, { contentIndex, json: "" });
    this.emit({ type: "toolcall_start", contentIndex, partial: this.message });
  }

  private delta(index: number, delta: NonNullable<ConverseStreamOutput["contentBlockDelta"]>["delta"]): void {
    if (delta === undefined) return;
    let open = this.open.get(index);
    if (delta.text !== undefined) {
      if (open === undefined) open = this.begin(index, "text");
      const block = this.message.content[open.contentIndex];
      if (block?.type !== "text") return;
      block.text += delta.text;
      this.emit({ type: "text_delta", contentIndex: open.contentIndex, delta: delta.text, partial: this.message });
    } else if (delta.toolUse) {
      const block = open && this.message.content[open.contentIndex];
      if (open?.json === undefined || block?.type !== "toolCall") return;
      const piece = delta.toolUse.input ?? "";
      open.json += piece;
      block.arguments = parsePartialJson(open.json);
      this.emit({ type: "toolcall_delta", contentIndex: open.contentIndex, delta: piece, partial: this.message });
    } else if (delta.reasoningContent) {
      if (open === undefined) open = this.begin(index, "thinking");
      const block = this.message.content[open.contentIndex];
      if (block?.type !== "thinking") return;
      const reasoning = delta.reasoningContent;
      if (reasoning.text) {
        block.thinking += reasoning.text;
        this.emit({
          type: "thinking_delta",
          contentIndex: open.contentIndex,
          delta: reasoning.text,
          partial: this.message,
        });
      }
      if (reasoning.signature && !block.redacted)
        block.thinkingSignature = (block.thinkingSignature ?? "") + reasoning.signature;
      if (reasoning.redactedContent?.length) {
        if (!block.redacted) {
          block.redacted = true;
          block.thinking += REDACTED_PLACEHOLDER;
          this.emit({
            type: "thinking_delta",
            contentIndex: open.contentIndex,
            delta: REDACTED_PLACEHOLDER,
            partial: this.message,
          });
        }
        (open.redacted ??= []).push(reasoning.redactedContent);
      }
    }
  }

  private begin(index: number, kind: "text" | "thinking"): OpenBlock {
    this.message.content.push(kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" });
    const open: OpenBlock = { contentIndex: this.message.content.length - 1 };
    this.open.set(index, open);
    this.emit({
      type: kind === "text" ? "text_start" : "thinking_start",
      contentIndex: open.contentIndex,
      partial: this.message,
    });
    return open;
  }

  private stop(index: number): void {
    const open = this.open.get(index);
    if (open === undefined) return;
    this.open.delete(index);
    const contentIndex = open.contentIndex;
    const block = this.message.content[contentIndex]!;
    if (block.type === "text")
      this.emit({ type: "text_end", contentIndex, content: block.text, partial: this.message });
    else if (block.type === "thinking") {
      if (open.redacted) block.thinkingSignature = Buffer.concat(open.redacted).toString("base64");
      this.emit({ type: "thinking_end", contentIndex, content: block.thinking, partial: this.message });
    } else {
      parseToolArguments(block, open.json ?? "");
      this.emit({ type: "toolcall_end", contentIndex, toolCall: block, partial: this.message });
    }
  }

  /** Bedrock reports cache reads and writes apart from input, as the usage record wants them. */
  private setUsage(usage: TokenUsage): void {
    const target = this.message.usage;
    target.input = usage.inputTokens ?? 0;
    target.output = usage.outputTokens ?? 0;
    target.cacheRead = usage.cacheReadInputTokens ?? 0;
    target.cacheWrite = usage.cacheWriteInputTokens ?? 0;
    priceUsage(target, this.model);
  }

  private emit(event: AssistantMessageEvent): void {
    this.emittedContent = true;
    this.events.push(event);
  }
}
