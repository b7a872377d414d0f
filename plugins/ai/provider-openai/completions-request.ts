/**
 * Builds a Chat Completions request body from a context: the history after cross-provider handoff,
 * tools as JSON Schema function tools, max tokens, reasoning in the server's dialect, and OpenAI's
 * session-keyed prompt caching. Pure: no I/O, so tests can check every field.
 */
import { historyFor, JsonArrayStream, prepareHistory } from "pi-host";
import type {
  AssistantMessage,
  Context,
  ImageContent,
  Message,
  Model,
  StreamOptions,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  ToolSpec,
} from "pi-host";
import type { ResolvedCompletionsCompat } from "./completions-compat.js";
import { reasoningEffort } from "./reasoning-effort.js";
import { imageDataUrl, wellFormed } from "./text.js";
import { completionsToolCallId } from "./tool-call-ids.js";

/** One message of the `messages` array (OpenAI's shape plus the reasoning fields some servers add). */
export type ChatMessage = { role: "system" | "developer" | "user" | "assistant" | "tool" } & Record<string, unknown>;

/** A request body with `messages` of type M; typed loosely because compatible servers take fields OpenAI's types do not list. */
type BodyWith<M> = { model: string; messages: M; stream: true } & Record<string, unknown>;

/** The request body. */
export type CompletionsBody = BodyWith<ChatMessage[]>;

/** The assistant-message fields in which servers stream reasoning text back, and accept it again. */
export const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;

/** Cap for the default max tokens when the caller sets none (pi's default). */
const DEFAULT_MAX_TOKENS_CAP = 32_000;
const TOOL_IMAGES_NOTE = "Attached image(s) from tool result:";
const BRIDGE_AFTER_TOOL_RESULTS = "I have processed the tool results.";

/**
 * The body as it goes on the wire when nobody needs to see it first: the same fields, with `messages`
 * converted as they are serialized (a long history's converted messages never exist all at once).
 */
export type StreamedCompletionsBody = BodyWith<JsonArrayStream<ChatMessage>>;

/** The body for one request to `model`. */
export function buildCompletionsBody(
  model: Model,
  context: Context,
  options: StreamOptions,
  compat: ResolvedCompletionsCompat,
): CompletionsBody {
  const history = prepareHistory(context.messages, model, completionsToolCallId);
  return completionsBody(model, context, options, compat, [
    ...chatMessages(history, context.systemPrompt, model, compat),
  ]);
}

/** `buildCompletionsBody`'s body with `messages` made while it is sent (see StreamedCompletionsBody). */
export function buildStreamedCompletionsBody(
  model: Model,
  context: Context,
  options: StreamOptions,
  compat: ResolvedCompletionsCompat,
): StreamedCompletionsBody {
  // The list as it is now: the body is serialized twice (to count, then to send) and while the socket takes
  // it, so a message the caller appends meanwhile must not change it.
  const history = [...context.messages];
  const messages = new JsonArrayStream(() =>
    chatMessages(historyFor(history, model, completionsToolCallId), context.systemPrompt, model, compat),
  );
  return completionsBody(model, context, options, compat, messages);
}

/** Every field of the body around `messages`, in the order they go out. */
function completionsBody<Messages>(
  model: Model,
  context: Context,
  options: StreamOptions,
  compat: ResolvedCompletionsCompat,
  messages: Messages,
): BodyWith<Messages> {
  const body: BodyWith<Messages> = { model: model.id, messages, stream: true };
  if (compat.supportsUsageInStreaming) body.stream_options = { include_usage: true };
  if (compat.supportsStore) body.store = false;
  const maxTokens =
    options.maxTokens ?? (model.maxTokens > 0 ? Math.min(model.maxTokens, DEFAULT_MAX_TOKENS_CAP) : undefined);
  if (maxTokens !== undefined) body[compat.maxTokensField] = maxTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (context.tools !== undefined && context.tools.length > 0)
    body.tools = context.tools.map((tool) => functionTool(tool, compat));
  applyReasoning(body, model, compat, options);
  if (compat.sendsPromptCacheKey && options.sessionId !== undefined && options.cacheRetention !== "none") {
    body.prompt_cache_key = options.sessionId;
    if (options.cacheRetention === "long") body.prompt_cache_retention = "24h";
  }
  return body;
}

/** A tool as a Chat Completions function tool; TypeBox parameters already are JSON Schema. */
function functionTool(tool: ToolSpec, compat: ResolvedCompletionsCompat): Record<string, unknown> {
  const fn: Record<string, unknown> = { name: tool.name, description: tool.description, parameters: tool.parameters };
  if (compat.supportsStrictMode) fn.strict = false;
  return { type: "function", function: fn };
}

/** Asks for reasoning the way the server expects; nothing at all for models that do not reason. */
function applyReasoning(
  body: Record<string, unknown>,
  model: Model,
  compat: ResolvedCompletionsCompat,
  options: StreamOptions,
): void {
  if (!model.reasoning) return;
  const effort = reasoningEffort(options.reasoning);
  switch (compat.thinkingFormat) {
    case "openrouter":
      body.reasoning = { effort: effort ?? "none" };
      return;
    case "deepseek":
      body.thinking = { type: effort === undefined ? "disabled" : "enabled" };
      if (effort !== undefined && compat.supportsReasoningEffort) body.reasoning_effort = effort;
      return;
    case "zai":
    case "qwen":
      body.enable_thinking = effort !== undefined;
      return;
    case "qwen-chat-template":
      body.chat_template_kwargs = { enable_thinking: effort !== undefined, preserve_thinking: true };
      return;
    case "openai":
      if (effort !== undefined && compat.supportsReasoningEffort) body.reasoning_effort = effort;
      return;
  }
}

/** The `messages` array: system prompt first, then the history in Chat Completions roles. */
export function toChatMessages(
  history: readonly Message[],
  systemPrompt: string | undefined,
  model: Model,
  compat: ResolvedCompletionsCompat,
): ChatMessage[] {
  return [...chatMessages(history, systemPrompt, model, compat)];
}

/** The `messages` array's elements one at a time, each made when it is asked for. */
function* chatMessages(
  history: Iterable<Message>,
  systemPrompt: string | undefined,
  model: Model,
  compat: ResolvedCompletionsCompat,
): Generator<ChatMessage> {
  if (systemPrompt !== undefined && systemPrompt !== "") {
    yield {
      role: model.reasoning && compat.supportsDeveloperRole ? "developer" : "system",
      content: wellFormed(systemPrompt),
    };
  }
  let afterToolResults = false;
  // A run of tool results becomes its `tool` messages (and a user message with their images, if any).
  let run: ToolResultMessage[] = [];
  for (const message of history) {
    if (message.role === "toolResult") {
      run.push(message);
      continue;
    }
    if (run.length > 0) {
      const results = toolResultMessages(run, model, compat);
      yield* results;
      afterToolResults = results.at(-1)?.role === "tool";
      run = [];
    }
    if (message.role === "user") {
      if (afterToolResults && compat.requiresAssistantAfterToolResult)
        yield { role: "assistant", content: BRIDGE_AFTER_TOOL_RESULTS };
      const user = userMessage(message.content);
      if (user !== undefined) yield user;
    } else {
      const assistant = assistantMessage(message, compat);
      if (assistant !== undefined) yield assistant;
    }
    afterToolResults = false;
  }
  if (run.length > 0) yield* toolResultMessages(run, model, compat);
}

function userMessage(content: string | Array<TextContent | ImageContent>): ChatMessage | undefined {
  if (typeof content === "string") return { role: "user", content: wellFormed(content) };
  if (content.length === 0) return undefined;
  return {
    role: "user",
    content: content.map((part) =>
      part.type === "text"
        ? { type: "text", text: wellFormed(part.text) }
        : { type: "image_url", image_url: { url: imageDataUrl(part) } },
    ),
  };
}

/**
 * An assistant turn: its text blocks as one string, paragraphs apart (the standard shape; some servers
 * echo content-part arrays back literally), tool calls with JSON-encoded arguments, and this model's own reasoning in the field it
 * came from. Empty turns are left out: servers reject an assistant message with neither.
 */
function assistantMessage(message: AssistantMessage, compat: ResolvedCompletionsCompat): ChatMessage | undefined {
  const text = message.content
    .filter((b): b is TextContent => b.type === "text" && b.text.trim() !== "")
    .map((b) => wellFormed(b.text))
    .join("\n\n");
  const thinking = message.content.filter(
    (b): b is ThinkingContent => b.type === "thinking" && b.thinking.trim() !== "",
  );
  const toolCalls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
  const out: ChatMessage = { role: "assistant", content: text === "" ? null : text };

  if (thinking.length > 0) {
    const thoughts = thinking.map((b) => wellFormed(b.thinking)).join("\n\n");
    const field = thinking[0]!.thinkingSignature;
    if (compat.requiresThinkingAsText) out.content = text === "" ? thoughts : `${thoughts}\n\n${text}`;
    else if (field !== undefined && (REASONING_FIELDS as readonly string[]).includes(field)) out[field] = thoughts;
  }
  if (compat.replaysReasoningContent && out.reasoning_content === undefined) out.reasoning_content = "";

  if (toolCalls.length > 0) {
    out.tool_calls = toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    // OpenRouter returns encrypted reasoning per tool call; it must come back with the call.
    const details = toolCalls.flatMap((call) =>
      call.thoughtSignature !== undefined ? parsedOrNothing(call.thoughtSignature) : [],
    );
    if (details.length > 0) out.reasoning_details = details;
  }
  if (out.content === null && out.tool_calls === undefined) return undefined;
  return out;
}

/**
 * Tool results become `tool` messages, one per call, in order. Their content must be text, so images go
 * in a user message right after the run (when the model accepts images); the run's messages are returned.
 */
function toolResultMessages(run: ToolResultMessage[], model: Model, compat: ResolvedCompletionsCompat): ChatMessage[] {
  const out: ChatMessage[] = [];
  const images: ImageContent[] = [];
  for (const result of run) {
    const text = result.content
      .filter((b): b is TextContent => b.type === "text")
      .map((b) => b.text)
      .join("\n");
    const resultImages = result.content.filter((b): b is ImageContent => b.type === "image");
    const message: ChatMessage = {
      role: "tool",
      tool_call_id: result.toolCallId,
      content: wellFormed(text !== "" ? text : resultImages.length > 0 ? "(see attached image)" : ""),
    };
    if (compat.requiresToolResultName) message.name = result.toolName;
    out.push(message);
    if (model.input.includes("image")) images.push(...resultImages);
  }
  if (images.length === 0) return out;
  if (compat.requiresAssistantAfterToolResult) out.push({ role: "assistant", content: BRIDGE_AFTER_TOOL_RESULTS });
  out.push({
    role: "user",
    content: [
      { type: "text", text: TOOL_IMAGES_NOTE },
      ...images.map((image) => ({ type: "image_url", image_url: { url: imageDataUrl(image) } })),
    ],
  });
  return out;
}

function parsedOrNothing(json: string): unknown[] {
  try {
    return [JSON.parse(json) as unknown];
  } catch {
    return [];
  }
}
