/**
 * pi-messages wire events back into the assistant message and its stream events. The wire events are
 * pi's own (without `partial`); every index is checked before it keys the content array, since it
 * comes from the network: a start adds the next block, any other event needs an existing one.
 */
import { parsePartialJson, parseToolArguments } from "pi-host";
import type { AssistantMessage, AssistantMessageEvent, ToolCall, Usage } from "pi-host";

/** One event as the wire carries it. */
export type WireEvent = Record<string, unknown> & { type: string };

/** Applies wire events to `message`; returns the event to emit (undefined for none). */
export class WireEventReader {
  private readonly argumentText = new Map<number, string>();

  constructor(private readonly message: AssistantMessage) {}

  read(event: WireEvent): AssistantMessageEvent | undefined {
    const m = this.message;
    const index = this.index(event);
    switch (event.type) {
      case "start":
        return undefined;
      case "text_start":
        m.content[index] = { type: "text", text: "" };
        return { type: "text_start", contentIndex: index, partial: m };
      case "thinking_start":
        m.content[index] = { type: "thinking", thinking: "" };
        return { type: "thinking_start", contentIndex: index, partial: m };
      case "toolcall_start":
        m.content[index] = {
          type: "toolCall",
          id: String(event.id ?? ""),
          name: String(event.toolName ?? ""),
          arguments: {},
        };
        this.argumentText.set(index, "");
        return { type: "toolcall_start", contentIndex: index, partial: m };
      case "text_delta":
      case "thinking_delta":
      case "toolcall_delta":
        return this.delta(event.type, index, String(event.delta ?? ""));
      case "text_end":
      case "thinking_end":
        return this.end(event, index);
      case "toolcall_end": {
        const block = this.block(index, "toolCall") as ToolCall;
        const sent = event.toolCall as Partial<ToolCall> | undefined;
        if (sent !== undefined && typeof sent === "object") {
          if (typeof sent.id === "string") block.id = sent.id;
          if (typeof sent.name === "string") block.name = sent.name;
          if (sent.arguments !== null && typeof sent.arguments === "object") block.arguments = sent.arguments;
        } else parseToolArguments(block, this.argumentText.get(index) ?? "");
        this.argumentText.delete(index);
        return { type: "toolcall_end", contentIndex: index, toolCall: block, partial: m };
      }
      case "done":
      case "error":
        return this.terminal(event);
      default:
        return undefined;
    }
  }

  private index(event: WireEvent): number {
    if (!("contentIndex" in event)) return -1;
    const index = event.contentIndex;
    const limit = event.type.endsWith("_start") ? this.message.content.length : this.message.content.length - 1;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > limit) {
      throw new Error(`Invalid contentIndex ${JSON.stringify(index)} in pi-messages ${event.type} event`);
    }
    return index;
  }

  private block(index: number, type: string) {
    const block = this.message.content[index];
    if (block === undefined || block.type !== type) {
      throw new Error(`pi-messages event for content ${index} does not match its ${block?.type ?? "missing"} block`);
    }
    return block;
  }

  private delta(type: string, index: number, delta: string): AssistantMessageEvent {
    const m = this.message;
    if (type === "text_delta") {
      const block = this.block(index, "text");
      if (block.type === "text") block.text += delta;
      return { type: "text_delta", contentIndex: index, delta, partial: m };
    }
    if (type === "thinking_delta") {
      const block = this.block(index, "thinking");
      if (block.type === "thinking") block.thinking += delta;
      return { type: "thinking_delta", contentIndex: index, delta, partial: m };
    }
    const block = this.block(index, "toolCall") as ToolCall;
    const text = (this.argumentText.get(index) ?? "") + delta;
    this.argumentText.set(index, text);
    block.arguments = parsePartialJson(text);
    return { type: "toolcall_delta", contentIndex: index, delta, partial: m };
  }

  private end(event: WireEvent, index: number): AssistantMessageEvent {
    const m = this.message;
    const signature = typeof event.contentSignature === "string" ? event.contentSignature : undefined;
    if (event.type === "text_end") {
      const block = this.block(index, "text");
      if (block.type === "text") {
        if (typeof event.content === "string") block.text = event.content;
        if (signature !== undefined) block.textSignature = signature;
      }
      return { type: "text_end", contentIndex: index, content: block.type === "text" ? block.text : "", partial: m };
    }
    const block = this.block(index, "thinking");
    if (block.type === "thinking") {
      if (typeof event.content === "string") block.thinking = event.content;
      if (signature !== undefined) block.thinkingSignature = signature;
      if (event.redacted === true) block.redacted = true;
    }
    return {
      type: "thinking_end",
      contentIndex: index,
      content: block.type === "thinking" ? block.thinking : "",
      partial: m,
    };
  }

  private terminal(event: WireEvent): AssistantMessageEvent {
    const m = this.message;
    if (isUsage(event.usage)) m.usage = event.usage;
    if (typeof event.responseId === "string") m.responseId = event.responseId;
    if (event.type === "done") {
      const reason = event.reason === "length" || event.reason === "toolUse" ? event.reason : "stop";
      m.stopReason = reason;
      return { type: "done", reason, message: m };
    }
    const reason = event.reason === "aborted" ? "aborted" : "error";
    m.stopReason = reason;
    m.errorMessage = typeof event.errorMessage === "string" ? event.errorMessage : "the gateway reported an error";
    return { type: "error", reason, error: m };
  }
}

function isUsage(value: unknown): value is Usage {
  const u = value as Usage | undefined;
  return (
    u !== null &&
    typeof u === "object" &&
    typeof u.input === "number" &&
    typeof u.output === "number" &&
    typeof u.cost === "object" &&
    u.cost !== null
  );
}
