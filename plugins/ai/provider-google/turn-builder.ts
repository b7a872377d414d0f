/**
 * Builds one assistant message from Gemini's stream chunks and emits the matching events. Gemini sends
 * text and thoughts in pieces (merged here into one block per run of parts of the same kind) and
 * function calls whole (each becomes toolcall_start, one toolcall_delta with its JSON, toolcall_end).
 */
import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from "@google/genai";
import {
  emptyUsage,
  parseToolArguments,
  priceUsage,
  shortHash,
  type AssistantEventStream,
  type AssistantMessage,
  type Model,
  type StopReason,
  type TextContent,
  type ThinkingContent,
  type ToolCall,
} from "pi-host";
import { finishProblem } from "./finish-reason.js";

/** Accumulates one streamed answer into `message`, pushing events to `events` as it goes. */
export class TurnBuilder {
  /** Whether any content event reached the consumer (after that, a failed attempt cannot be retried). */
  emittedContent = false;
  private open: TextContent | ThinkingContent | undefined;
  private finishReason: string | undefined;
  private finishMessage: string | undefined;
  private blockReason: string | undefined;
  private callCount = 0;

  constructor(
    private readonly model: Model,
    private readonly message: AssistantMessage,
    private readonly events: AssistantEventStream,
  ) {}

  /** Forgets what a failed attempt that emitted no content left behind (usage, finish reason). */
  resetForRetry(): void {
    this.message.usage = emptyUsage();
    this.message.responseId = undefined;
    this.finishReason = undefined;
    this.finishMessage = undefined;
    this.blockReason = undefined;
  }

  /** Takes one chunk of the stream. */
  accept(chunk: GenerateContentResponse): void {
    this.message.responseId ??= chunk.responseId;
    if (chunk.usageMetadata) this.setUsage(chunk.usageMetadata);
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.acceptPart(part);
    if (candidate?.finishReason) {
      this.finishReason = candidate.finishReason;
      this.finishMessage = candidate.finishMessage;
    }
  }

  /** Closes the last block and says how the turn ended; throws when Gemini ended it abnormally. */
  finish(): Exclude<StopReason, "error" | "aborted"> {
    this.closeOpen();
    const problem = finishProblem(this.finishReason, this.finishMessage, this.blockReason);
    if (problem !== undefined) throw new Error(problem);
    if (this.finishReason === "MAX_TOKENS") return "length";
    return this.message.content.some((b) => b.type === "toolCall") ? "toolUse" : "stop";
  }

  private acceptPart(part: Part): void {
    if (part.functionCall) {
      this.closeOpen();
      this.addToolCall(part);
    } else if (typeof part.text === "string" || part.thoughtSignature) {
      // Empty strings are left out of the JSON, so a signature may arrive on a part with no text at all.
      this.addText(part.text ?? "", part.thought === true, part.thoughtSignature);
    }
    // Other part kinds (executable code, generated images) have no place in the message model.
  }

  private addText(text: string, thought: boolean, signature: string | undefined): void {
    const kind = thought ? "thinking" : "text";
    let block = this.open;
    if (block === undefined || block.type !== kind) {
      this.closeOpen();
      block = kind === "thinking" ? { type: "thinking", thinking: "" } : { type: "text", text: "" };
      this.message.content.push(block);
      this.open = block;
      this.emit({
        type: kind === "thinking" ? "thinking_start" : "text_start",
        contentIndex: this.index(),
        partial: this.message,
      });
    }
    // A signature belongs to the block it arrived in; later pieces without one do not erase it.
    if (signature) {
      if (block.type === "thinking") block.thinkingSignature = signature;
      else block.textSignature = signature;
    }
    if (text === "") return;
    if (block.type === "thinking") {
      block.thinking += text;
      this.emit({ type: "thinking_delta", contentIndex: this.index(), delta: text, partial: this.message });
    } else {
      block.text += text;
      this.emit({ type: "text_delta", contentIndex: this.index(), delta: text, partial: this.message });
    }
  }

  private addToolCall(part: Part): void {
    const call = part.functionCall!;
    if (!call.name) throw new Error(`Gemini sent a function call without a name: ${JSON.stringify(call)}`);
    const toolCall: ToolCall = {
      type: "toolCall",
      id: this.callId(call.id, call.name),
      name: call.name,
      arguments: {},
    };
    if (part.thoughtSignature) toolCall.thoughtSignature = part.thoughtSignature;
    this.message.content.push(toolCall);
    const index = this.index();
    this.emit({ type: "toolcall_start", contentIndex: index, partial: this.message });
    const json = JSON.stringify(call.args ?? {});
    parseToolArguments(toolCall, json);
    this.emit({ type: "toolcall_delta", contentIndex: index, delta: json, partial: this.message });
    this.emit({ type: "toolcall_end", contentIndex: index, toolCall, partial: this.message });
  }

  /**
   * Gemini's own id when it sends a fresh one; otherwise one derived from the response id and the
   * call's position, so it is the same every time this answer is read and unique across answers.
   */
  private callId(given: string | undefined, name: string): string {
    this.callCount++;
    const taken = (id: string): boolean => this.message.content.some((b) => b.type === "toolCall" && b.id === id);
    if (given && !taken(given)) return given;
    const seed = this.message.responseId ?? `${this.message.timestamp}:${this.model.id}`;
    const safeName = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 40);
    return `${safeName}_${shortHash(seed)}_${this.callCount}`;
  }

  private closeOpen(): void {
    const block = this.open;
    if (block === undefined) return;
    this.open = undefined;
    if (block.type === "thinking")
      this.emit({ type: "thinking_end", contentIndex: this.index(), content: block.thinking, partial: this.message });
    else this.emit({ type: "text_end", contentIndex: this.index(), content: block.text, partial: this.message });
  }

  /**
   * Gemini counts cached tokens inside `promptTokenCount`; they are billed at the cache price, so they
   * move from input to cacheRead. Thoughts are billed as output.
   */
  private setUsage(meta: GenerateContentResponseUsageMetadata): void {
    const usage = this.message.usage;
    const cached = meta.cachedContentTokenCount ?? 0;
    usage.input = Math.max(0, (meta.promptTokenCount ?? 0) + (meta.toolUsePromptTokenCount ?? 0) - cached);
    usage.output = (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0);
    usage.cacheRead = cached;
    usage.cacheWrite = 0;
    priceUsage(usage, this.model);
  }

  private index(): number {
    return this.message.content.length - 1;
  }

  private emit(event: Parameters<AssistantEventStream["push"]>[0]): void {
    this.emittedContent = true;
    this.events.push(event);
  }
}
