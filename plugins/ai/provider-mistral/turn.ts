/**
 * One streamed Mistral answer turned into the assistant message and its events: text and thinking
 * blocks (a new block whenever the kind changes), tool calls keyed by their index with arguments
 * growing as they stream, usage with cached prompt tokens, and the finish reason.
 */
import { parsePartialJson, parseToolArguments, priceUsage } from "pi-host";
import type { AssistantEventStream, AssistantMessage, Model, TextContent, ThinkingContent, ToolCall } from "pi-host";
import type { MistralChunk } from "./sse.js";
import { derivedId } from "./tool-ids.js";

/** Builds the message from chunks and pushes events; `finish` ends the open blocks. */
export class MistralTurn {
  /** Whether any content event reached the consumer (a retry would then repeat it). */
  contentSent = false;
  /** Set by the first chunk that carried a finish reason. */
  finished = false;
  private open: { kind: "text" | "thinking"; index: number } | undefined;
  private readonly calls = new Map<string | number, { index: number; text: string }>();

  constructor(
    readonly message: AssistantMessage,
    private readonly events: AssistantEventStream,
    private readonly model: Model,
  ) {}

  /** Reads one chunk. */
  take(chunk: MistralChunk): void {
    this.message.responseId ??= typeof chunk.id === "string" && chunk.id !== "" ? chunk.id : undefined;
    if (chunk.usage !== undefined) this.usage(chunk.usage);
    const choice = chunk.choices[0];
    if (choice === undefined) return;
    const content = choice.delta.content;
    if (typeof content === "string") this.append("text", content);
    else if (Array.isArray(content)) {
      for (const item of content) {
        if (item.type === "text") this.append("text", String((item as { text?: unknown }).text ?? ""));
        else if (item.type === "thinking") {
          const pieces = ((item as { thinking?: Array<{ text?: string }> }).thinking ?? []).map((p) => p.text ?? "");
          this.append("thinking", pieces.join(""));
        }
      }
    }
    for (const call of choice.delta.tool_calls ?? []) this.toolCall(call);
    if (choice.finish_reason) this.finishReason(choice.finish_reason);
  }

  /** Ends the open text/thinking block and every tool call. */
  finish(): void {
    this.closeBlock();
    for (const { index, text } of this.calls.values()) {
      const block = this.message.content[index] as ToolCall;
      parseToolArguments(block, text);
      this.events.push({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: this.message });
    }
    this.calls.clear();
  }

  private append(kind: "text" | "thinking", delta: string): void {
    // Some models send empty deltas around thinking and tool calls; a block for them would split thinking.
    if (delta === "") return;
    if (this.open?.kind !== kind) {
      this.closeBlock();
      const block: TextContent | ThinkingContent =
        kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
      this.message.content.push(block);
      this.open = { kind, index: this.message.content.length - 1 };
      this.push({ type: `${kind}_start`, contentIndex: this.open.index, partial: this.message });
    }
    const block = this.message.content[this.open.index]!;
    if (block.type === "text") block.text += delta;
    else if (block.type === "thinking") block.thinking += delta;
    this.push({ type: `${kind}_delta`, contentIndex: this.open.index, delta, partial: this.message });
  }

  private closeBlock(): void {
    if (this.open === undefined) return;
    const block = this.message.content[this.open.index]!;
    const text = block.type === "text" ? block.text : block.type === "thinking" ? block.thinking : "";
    this.push({ type: `${this.open.kind}_end`, contentIndex: this.open.index, content: text, partial: this.message });
    this.open = undefined;
  }

  private toolCall(call: NonNullable<MistralChunk["choices"][number]["delta"]["tool_calls"]>[number]): void {
    this.closeBlock();
    const id = call.id && call.id !== "null" ? call.id : derivedId(`toolcall:${call.index ?? 0}`);
    const key = call.index ?? id;
    let open = this.calls.get(key);
    if (open === undefined) {
      this.message.content.push({ type: "toolCall", id, name: call.function.name ?? "", arguments: {} });
      open = { index: this.message.content.length - 1, text: "" };
      this.calls.set(key, open);
      this.push({ type: "toolcall_start", contentIndex: open.index, partial: this.message });
    }
    const raw = call.function.arguments;
    const delta = typeof raw === "string" ? raw : JSON.stringify(raw ?? {});
    open.text += delta;
    (this.message.content[open.index] as ToolCall).arguments = parsePartialJson(open.text);
    this.push({ type: "toolcall_delta", contentIndex: open.index, delta, partial: this.message });
  }

  private usage(usage: NonNullable<MistralChunk["usage"]>): void {
    const prompt = usage.prompt_tokens ?? 0;
    const details = (usage.prompt_tokens_details ?? usage.prompt_token_details) as
      | { cached_tokens?: unknown }
      | undefined;
    const rawCached = details?.cached_tokens ?? usage.num_cached_tokens ?? 0;
    const cached = Math.min(prompt, Math.max(0, typeof rawCached === "number" ? rawCached : 0));
    const u = this.message.usage;
    u.input = prompt - cached;
    u.output = usage.completion_tokens ?? 0;
    u.cacheRead = cached;
    u.cacheWrite = 0;
    priceUsage(u, this.model);
  }

  private finishReason(reason: string): void {
    this.finished = true;
    if (reason === "stop") this.message.stopReason = "stop";
    else if (reason === "length" || reason === "model_length") this.message.stopReason = "length";
    else if (reason === "tool_calls") this.message.stopReason = "toolUse";
    else {
      this.message.stopReason = "error";
      // "server error" marks Mistral's transient failure as one worth retrying.
      this.message.errorMessage =
        reason === "error" ? "Provider stopped with: error (server error)" : `Provider stopped with: ${reason}`;
    }
  }

  private push(event: Parameters<AssistantEventStream["push"]>[0]): void {
    this.contentSent = true;
    this.events.push(event);
  }
}
