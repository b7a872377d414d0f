/**
 * Reads a Responses API event stream into the message. Output items are announced by
 * `response.output_item.added` and finished by `response.output_item.done`: reasoning items become
 * thinking blocks (their summary streamed as thinking deltas, the finished item kept as the signature
 * for replay), messages become text blocks (the item id as signature), function calls become tool
 * calls with id `${call_id}|${item_id}`. `response.completed` brings usage and the final status.
 */
import { priceUsage } from "pi-host";
import type { Model, ToolCall, Usage } from "pi-host";
import type { MessageBuilder } from "./message-builder.js";

/** The parts of a stream event this reader uses. */
export interface ResponsesEvent {
  type: string;
  output_index?: number;
  summary_index?: number;
  delta?: string;
  arguments?: string;
  item?: OutputItem;
  response?: ResponseSnapshot;
  code?: string | null;
  message?: string;
}

interface OutputItem {
  type: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  summary?: Array<{ text?: string }>;
  content?: Array<{ type?: string; text?: string; refusal?: string }>;
}

interface ResponseSnapshot {
  id?: string;
  status?: string;
  error?: { code?: string | null; message?: string } | null;
  incomplete_details?: { reason?: string } | null;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  } | null;
}

/** Reads every event; throws on `error` / `response.failed` and when the stream ends without a verdict. */
export async function consumeResponsesEvents(
  events: AsyncIterable<ResponsesEvent>,
  builder: MessageBuilder,
  model: Model,
  signal?: AbortSignal,
): Promise<void> {
  const message = builder.message;
  /** Content index of the block each output item (by output_index) fills. */
  const blocks = new Map<number, number>();
  let finished = false;

  const blockOf = (event: ResponsesEvent): number | undefined =>
    event.output_index === undefined ? undefined : blocks.get(event.output_index);

  for await (const event of events) {
    switch (event.type) {
      case "response.created":
      case "response.in_progress":
        if (event.response?.id) message.responseId = event.response.id;
        break;
      case "response.output_item.added": {
        const item = event.item;
        if (item === undefined || event.output_index === undefined) break;
        if (item.type === "reasoning") blocks.set(event.output_index, builder.openThinking());
        else if (item.type === "message") blocks.set(event.output_index, builder.openText());
        else if (item.type === "function_call") {
          const index = builder.openToolCall(`${item.call_id ?? ""}|${item.id ?? ""}`, item.name ?? "");
          blocks.set(event.output_index, index);
          builder.appendToolArguments(index, item.arguments ?? "");
        }
        break;
      }
      case "response.reasoning_summary_part.added": {
        const index = blockOf(event);
        // Summary parts are separate paragraphs; the final text joins them the same way.
        if (index !== undefined && (event.summary_index ?? 0) > 0) builder.appendThinking(index, "\n\n");
        break;
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const index = blockOf(event);
        if (index !== undefined && builder.block(index).type === "thinking")
          builder.appendThinking(index, event.delta ?? "");
        break;
      }
      case "response.output_text.delta":
      case "response.refusal.delta": {
        const index = blockOf(event);
        if (index !== undefined && builder.block(index).type === "text") builder.appendText(index, event.delta ?? "");
        break;
      }
      case "response.function_call_arguments.delta": {
        const index = blockOf(event);
        if (index !== undefined && builder.block(index).type === "toolCall")
          builder.appendToolArguments(index, event.delta ?? "");
        break;
      }
      case "response.function_call_arguments.done": {
        const index = blockOf(event);
        if (index === undefined || builder.block(index).type !== "toolCall" || event.arguments === undefined) break;
        const sofar = builder.toolArgumentsText(index);
        if (event.arguments.startsWith(sofar)) builder.appendToolArguments(index, event.arguments.slice(sofar.length));
        break;
      }
      case "response.output_item.done":
        finishItem(event, blockOf(event), builder);
        break;
      case "response.completed":
      case "response.incomplete":
        complete(event.response, builder, model);
        finished = true;
        break;
      case "response.failed":
        throw new Error(failureText(event.response));
      case "error":
        throw new Error(
          `${event.code ? `${event.code}: ` : ""}${event.message ?? "the provider reported an error without a message"}`,
        );
      default:
        break;
    }
  }
  if (signal?.aborted) return;
  builder.closeAll();
  if (!finished) throw new Error("The stream ended before the response completed (no response.completed event)");
}

/** Closes the block of a finished output item with the item's final, authoritative content. */
function finishItem(event: ResponsesEvent, index: number | undefined, builder: MessageBuilder): void {
  const item = event.item;
  if (item === undefined || index === undefined) return;
  if (item.type === "reasoning") {
    const summary = (item.summary ?? []).map((part) => part.text ?? "").join("\n\n");
    const content = (item.content ?? []).map((part) => part.text ?? "").join("\n\n");
    builder.closeThinking(index, summary || content || undefined, JSON.stringify(item));
  } else if (item.type === "message") {
    const text = (item.content ?? [])
      .map((part) => (part.type === "refusal" ? (part.refusal ?? "") : (part.text ?? "")))
      .join("");
    builder.closeText(index, text, item.id);
  } else if (item.type === "function_call") {
    const block = builder.block(index) as ToolCall;
    if (item.call_id && item.id) block.id = `${item.call_id}|${item.id}`;
    builder.closeToolCall(index, item.arguments || undefined);
  }
}

/** Usage and stop reason from the final response. */
function complete(response: ResponseSnapshot | undefined, builder: MessageBuilder, model: Model): void {
  const message = builder.message;
  if (response?.id) message.responseId = response.id;
  if (response?.usage) message.usage = usageFrom(response.usage, model);
  const hasToolCalls = message.content.some((b) => b.type === "toolCall");
  if (response?.status === "incomplete") {
    const reason = response.incomplete_details?.reason;
    if (reason === "content_filter") {
      message.stopReason = "error";
      message.errorMessage = "The provider stopped the answer: content_filter";
    } else {
      message.stopReason = "length";
    }
  } else if (response?.status === "failed" || response?.status === "cancelled") {
    message.stopReason = "error";
    message.errorMessage = failureText(response);
  } else {
    message.stopReason = hasToolCalls ? "toolUse" : "stop";
  }
}

function usageFrom(raw: NonNullable<ResponseSnapshot["usage"]>, model: Model): Usage {
  const cacheRead = raw.input_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = raw.input_tokens_details?.cache_write_tokens ?? 0;
  const usage: Usage = {
    input: Math.max(0, (raw.input_tokens ?? 0) - cacheRead - cacheWrite),
    output: raw.output_tokens ?? 0,
    cacheRead,
    cacheWrite,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  return priceUsage(usage, model);
}

function failureText(response: ResponseSnapshot | undefined): string {
  const error = response?.error;
  if (error) return `${error.code ? `${error.code}: ` : ""}${error.message ?? "no message"}`;
  const reason = response?.incomplete_details?.reason;
  if (reason) return `The response failed: ${reason}`;
  return `The response failed with status "${response?.status ?? "unknown"}" and no error details`;
}
