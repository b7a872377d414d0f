/**
 * Builds one assistant message while it streams and emits the matching events, so the two wire
 * formats only decide *what* happened ("a text block opened", "arguments grew") and never hand-write
 * event objects. It also remembers whether any content reached the consumer: after that, a failed
 * request can no longer be retried transparently.
 */
import {
  type AssistantEventStream,
  emptyUsage,
  newAssistantMessage,
  parsePartialJson,
  parseToolArguments,
} from "pi-host";
import type { AssistantMessage, Model, TextContent, ThinkingContent, ToolCall } from "pi-host";

/** Builds the message and pushes its events into `events`. */
export class MessageBuilder {
  readonly message: AssistantMessage;
  /** Raw argument text per tool-call content index, kept off the block so it is never persisted. */
  private readonly toolArguments = new Map<number, string>();
  private readonly open = new Set<number>();
  private started = false;
  private contentSent = false;

  constructor(
    private readonly events: AssistantEventStream,
    model: Model,
  ) {
    this.message = newAssistantMessage(model);
  }

  /** Whether a content event reached the consumer (a retry would then repeat it). */
  get contentEmitted(): boolean {
    return this.contentSent;
  }

  /** Whether `start` was emitted: the response had begun streaming. */
  get streaming(): boolean {
    return this.started;
  }

  /** Emits `start` once, when the first attempt gets an answer. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.events.push({ type: "start", partial: this.message });
  }

  /** Forgets what a failed attempt learned before any content (ids, usage) so a retry starts clean. */
  resetForRetry(): void {
    if (this.contentSent) throw new Error("cannot retry a stream whose content already reached the consumer");
    delete this.message.responseId;
    delete this.message.errorMessage;
    this.message.usage = emptyUsage();
    this.message.stopReason = "stop";
  }

  /** Whether the block at `index` has started and not yet ended. */
  isOpen(index: number): boolean {
    return this.open.has(index);
  }

  /** The content block at `index`. */
  block(index: number): AssistantMessage["content"][number] {
    const block = this.message.content[index];
    if (block === undefined) throw new Error(`no content block at index ${index}`);
    return block;
  }

  openText(): number {
    const index = this.add({ type: "text", text: "" });
    this.events.push({ type: "text_start", contentIndex: index, partial: this.message });
    return index;
  }

  appendText(index: number, delta: string): void {
    if (delta === "") return;
    (this.block(index) as TextContent).text += delta;
    this.events.push({ type: "text_delta", contentIndex: index, delta, partial: this.message });
  }

  /** Ends a text block; `finalText` replaces the streamed text when the API sends the whole text at the end. */
  closeText(index: number, finalText?: string, signature?: string): void {
    if (!this.open.delete(index)) return;
    const block = this.block(index) as TextContent;
    if (finalText !== undefined) block.text = finalText;
    if (signature !== undefined) block.textSignature = signature;
    this.events.push({ type: "text_end", contentIndex: index, content: block.text, partial: this.message });
  }

  openThinking(signature?: string): number {
    const block: ThinkingContent = { type: "thinking", thinking: "" };
    if (signature !== undefined) block.thinkingSignature = signature;
    const index = this.add(block);
    this.events.push({ type: "thinking_start", contentIndex: index, partial: this.message });
    return index;
  }

  appendThinking(index: number, delta: string): void {
    if (delta === "") return;
    (this.block(index) as ThinkingContent).thinking += delta;
    this.events.push({ type: "thinking_delta", contentIndex: index, delta, partial: this.message });
  }

  /** Ends a thinking block; `signature` carries what the API needs to have it replayed. */
  closeThinking(index: number, finalText?: string, signature?: string): void {
    if (!this.open.delete(index)) return;
    const block = this.block(index) as ThinkingContent;
    if (finalText !== undefined) block.thinking = finalText;
    if (signature !== undefined) block.thinkingSignature = signature;
    this.events.push({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: this.message });
  }

  openToolCall(id: string, name: string): number {
    const index = this.add({ type: "toolCall", id, name, arguments: {} });
    this.toolArguments.set(index, "");
    this.events.push({ type: "toolcall_start", contentIndex: index, partial: this.message });
    return index;
  }

  /** Adds a piece of the arguments' JSON text; the block's arguments are re-parsed from the partial text. */
  appendToolArguments(index: number, delta: string): void {
    if (delta === "") return;
    const text = (this.toolArguments.get(index) ?? "") + delta;
    this.toolArguments.set(index, text);
    (this.block(index) as ToolCall).arguments = parsePartialJson(text);
    this.events.push({ type: "toolcall_delta", contentIndex: index, delta, partial: this.message });
  }

  /** The arguments' JSON text received so far. */
  toolArgumentsText(index: number): string {
    return this.toolArguments.get(index) ?? "";
  }

  /** Ends a tool call; `finalArguments` is the complete JSON text when the API sends it at the end. */
  closeToolCall(index: number, finalArguments?: string): void {
    if (!this.open.delete(index)) return;
    const block = this.block(index) as ToolCall;
    const text = finalArguments ?? this.toolArguments.get(index) ?? "";
    // The final arguments are parsed strictly: malformed JSON marks the call instead of being guessed at.
    parseToolArguments(block, text);
    this.toolArguments.delete(index);
    this.events.push({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: this.message });
  }

  /** Ends every block still open, in content order. */
  closeAll(): void {
    for (const index of [...this.open].sort((a, b) => a - b)) {
      const block = this.block(index);
      if (block.type === "text") this.closeText(index);
      else if (block.type === "thinking") this.closeThinking(index);
      else this.closeToolCall(index);
    }
  }

  /** Ends the stream successfully with the message's stop reason. */
  finish(): void {
    const reason = this.message.stopReason;
    if (reason === "error" || reason === "aborted") throw new Error(`finish() called with stop reason "${reason}"`);
    this.events.push({ type: "done", reason, message: this.message });
  }

  /** Ends the stream with an error event; the content received so far stays on the message. */
  fail(errorMessage: string, aborted: boolean): void {
    this.message.stopReason = aborted ? "aborted" : "error";
    this.message.errorMessage = errorMessage;
    this.toolArguments.clear();
    this.open.clear();
    this.events.push({ type: "error", reason: this.message.stopReason, error: this.message });
  }

  private add(block: AssistantMessage["content"][number]): number {
    this.start();
    this.contentSent = true;
    const index = this.message.content.push(block) - 1;
    this.open.add(index);
    return index;
  }
}
