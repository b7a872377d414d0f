/**
 * Reads a Chat Completions chunk stream into the message. Text arrives in `delta.content` (or
 * `delta.refusal`); reasoning in `reasoning_content` (DeepSeek, llama.cpp, vLLM), `reasoning`
 * (OpenRouter, Groq, Ollama), `reasoning_text`, or OpenRouter's structured `reasoning_details`; tool
 * calls arrive by `index`, their arguments split across many chunks, several calls in one answer.
 * Usage comes in the last chunk.
 */
import { priceUsage, shortHash } from "pi-host";
import type { Model, StopReason, ToolCall, Usage } from "pi-host";
import { REASONING_FIELDS } from "./completions-request.js";
import type { MessageBuilder } from "./message-builder.js";

/** The parts of a chunk this reader uses, including fields compatible servers add. */
export interface CompletionChunk {
  id?: string;
  choices?: Array<{
    delta?: {
      content?: string | null;
      refusal?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      reasoning_text?: string | null;
      reasoning_details?: ReasoningDetail[];
      tool_calls?: ToolCallDelta[];
    };
    finish_reason?: string | null;
    usage?: RawUsage | null;
  }>;
  usage?: RawUsage | null;
}

interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface ReasoningDetail {
  type?: string;
  id?: string;
  text?: string;
  summary?: string;
  data?: string;
}

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  /** DeepSeek reports cache hits here. */
  prompt_cache_hit_tokens?: number;
}

/**
 * Reads every chunk; throws when the stream ends without a finish reason (a cut-off answer). After an
 * abort it returns at once and leaves the open blocks as they are.
 */
export async function consumeCompletionChunks(
  chunks: AsyncIterable<CompletionChunk>,
  builder: MessageBuilder,
  model: Model,
  signal?: AbortSignal,
): Promise<void> {
  const message = builder.message;
  // Text and thinking are sequential: one of them is open at a time. Tool calls stay open to the end,
  // because a server may interleave the argument chunks of parallel calls.
  let prose: number | undefined;
  const toolByStreamIndex = new Map<number, number>();
  let finishReason: string | undefined;

  const openProse = (kind: "text" | "thinking", signature?: string): number => {
    if (prose !== undefined && builder.block(prose).type === kind) return prose;
    closeProse();
    prose = kind === "text" ? builder.openText() : builder.openThinking(signature);
    return prose;
  };
  const closeProse = (): void => {
    if (prose === undefined) return;
    const block = builder.block(prose);
    if (block.type === "text") builder.closeText(prose);
    else builder.closeThinking(prose);
    prose = undefined;
  };

  // A few servers leave out `index`: match a repeated id, else treat the chunk as the last call's continuation.
  const streamIndexWithoutIndex = (id: string | undefined): number => {
    for (const [streamIndex, index] of toolByStreamIndex)
      if (id && (builder.block(index) as ToolCall).id === id) return streamIndex;
    if (id || toolByStreamIndex.size === 0) return toolByStreamIndex.size;
    return toolByStreamIndex.size - 1;
  };

  for await (const chunk of chunks) {
    if (chunk === null || typeof chunk !== "object") continue;
    if (message.responseId === undefined && typeof chunk.id === "string" && chunk.id !== "")
      message.responseId = chunk.id;
    if (chunk.usage) message.usage = usageFrom(chunk.usage, model);
    const choice = chunk.choices?.[0];
    if (choice === undefined) continue;
    if (!chunk.usage && choice.usage) message.usage = usageFrom(choice.usage, model);
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (delta === undefined || delta === null) continue;

    const reasoning = reasoningText(delta);
    if (reasoning !== undefined) builder.appendThinking(openProse("thinking", reasoning.field), reasoning.text);
    if (typeof delta.content === "string" && delta.content !== "") builder.appendText(openProse("text"), delta.content);
    // A refusal is the model's answer too; the user should read it.
    if (typeof delta.refusal === "string" && delta.refusal !== "") builder.appendText(openProse("text"), delta.refusal);

    for (const call of delta.tool_calls ?? []) {
      const streamIndex = call.index ?? streamIndexWithoutIndex(call.id);
      let index = toolByStreamIndex.get(streamIndex);
      if (index === undefined) {
        closeProse();
        index = builder.openToolCall(call.id ?? "", call.function?.name ?? "");
        toolByStreamIndex.set(streamIndex, index);
      }
      const block = builder.block(index) as ToolCall;
      if (block.id === "" && call.id) block.id = call.id;
      if (block.name === "" && call.function?.name) block.name = call.function.name;
      if (call.function?.arguments) builder.appendToolArguments(index, call.function.arguments);
    }
    for (const detail of delta.reasoning_details ?? []) attachEncryptedReasoning(detail, builder);
  }
  if (signal?.aborted) return;

  for (const [streamIndex, index] of toolByStreamIndex) {
    const block = builder.block(index) as ToolCall;
    if (block.id === "") block.id = `call_${streamIndex}_${shortHash(`${message.responseId ?? ""}:${streamIndex}`)}`;
  }
  builder.closeAll();
  if (finishReason === undefined)
    throw new Error("The stream ended before the model finished its answer (no finish_reason)");
  const stop = stopReasonOf(finishReason);
  message.stopReason = stop.reason === "stop" && toolByStreamIndex.size > 0 ? "toolUse" : stop.reason;
  if (stop.errorMessage !== undefined) message.errorMessage = stop.errorMessage;
}

/**
 * The reasoning text of a delta and the field it came in (the field is kept as the thinking block's
 * signature, so the text goes back in the same field). Servers that send the same text in two fields
 * (`reasoning` and `reasoning_details`) are read from the first one only.
 */
function reasoningText(
  delta: NonNullable<NonNullable<CompletionChunk["choices"]>[number]["delta"]>,
): { field: string; text: string } | undefined {
  for (const field of REASONING_FIELDS) {
    const value = delta[field];
    if (typeof value === "string" && value !== "") return { field, text: value };
  }
  const text = (delta.reasoning_details ?? [])
    .map((d) =>
      d.type === "reasoning.text" ? (d.text ?? "") : d.type === "reasoning.summary" ? (d.summary ?? "") : "",
    )
    .join("");
  return text === "" ? undefined : { field: "reasoning", text };
}

/** OpenRouter's encrypted reasoning belongs to a tool call; it is replayed with that call. */
function attachEncryptedReasoning(detail: ReasoningDetail, builder: MessageBuilder): void {
  if (detail.type !== "reasoning.encrypted" || !detail.id || !detail.data) return;
  const call = builder.message.content.find((b): b is ToolCall => b.type === "toolCall" && b.id === detail.id);
  if (call !== undefined) call.thoughtSignature = JSON.stringify(detail);
}

/** Usage in pi's terms: `input` excludes cached tokens, which are counted (and priced) as cache reads. */
function usageFrom(raw: RawUsage, model: Model): Usage {
  const cacheRead = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens ?? 0;
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens ?? 0;
  const usage: Usage = {
    input: Math.max(0, (raw.prompt_tokens ?? 0) - cacheRead - cacheWrite),
    output: raw.completion_tokens ?? 0,
    cacheRead,
    cacheWrite,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  return priceUsage(usage, model);
}

function stopReasonOf(finishReason: string): { reason: StopReason; errorMessage?: string } {
  switch (finishReason) {
    case "stop":
    case "end":
      return { reason: "stop" };
    case "length":
      return { reason: "length" };
    case "tool_calls":
    case "function_call":
      return { reason: "toolUse" };
    default:
      return { reason: "error", errorMessage: `The provider stopped the answer: finish_reason "${finishReason}"` };
  }
}
