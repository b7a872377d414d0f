/**
 * Builds a Responses API request body: input items (messages, function calls and their outputs, this
 * model's encrypted reasoning items replayed verbatim), function tools, reasoning options and prompt
 * caching keyed by the session. `store: false` keeps nothing on OpenAI's side, which is why reasoning is
 * requested with its encrypted content and carried in the session instead. Pure: no I/O.
 */
import { isSameModel, prepareHistory } from "pi-host";
import type {
  AssistantMessage,
  Context,
  ImageContent,
  Message,
  Model,
  StreamOptions,
  TextContent,
  ToolResultMessage,
  ToolSpec,
} from "pi-host";
import { reasoningEffort } from "./reasoning-effort.js";
import { imageDataUrl, wellFormed } from "./text.js";
import { callIdPart, itemIdPart, responsesToolCallId } from "./tool-call-ids.js";

/** One input item; loose because replayed reasoning items go back exactly as the API sent them. */
export type InputItem = Record<string, unknown>;

/** The request body. */
export type ResponsesBody = { model: string; input: InputItem[]; stream: true; store: false } & Record<string, unknown>;

/** Cap for the default max output tokens when the caller sets none (pi's default). */
const DEFAULT_MAX_TOKENS_CAP = 32_000;

/**
 * Whether the key is a Sign in with ChatGPT access token sent straight to OpenAI (as pi 1.6 tells them
 * apart: OpenAI's own API keys start with `sk-`).
 */
export function isChatGPTSignIn(model: Model, apiKey: string | undefined): boolean {
  return (
    model.provider === "openai" &&
    model.baseUrl === "https://api.openai.com/v1" &&
    apiKey !== undefined &&
    !apiKey.startsWith("sk-")
  );
}

/** The body for one request to `model`. */
export function buildResponsesBody(model: Model, context: Context, options: StreamOptions): ResponsesBody {
  const history = prepareHistory(context.messages, model, responsesToolCallId);
  const body: ResponsesBody = {
    model: model.id,
    input: toInputItems(history, context.systemPrompt, model),
    stream: true,
    store: false,
  };
  // A Sign in with ChatGPT token is refused when the request sets these fields.
  const chatgpt = isChatGPTSignIn(model, options.apiKey);
  if (options.sessionId !== undefined && options.cacheRetention !== "none") {
    body.prompt_cache_key = options.sessionId;
    if (options.cacheRetention === "long" && model.compat?.supportsLongCacheRetention !== false && !chatgpt)
      body.prompt_cache_retention = "24h";
  }
  const maxTokens =
    options.maxTokens ?? (model.maxTokens > 0 ? Math.min(model.maxTokens, DEFAULT_MAX_TOKENS_CAP) : undefined);
  if (maxTokens !== undefined && !chatgpt) body.max_output_tokens = maxTokens;
  if (options.temperature !== undefined && !chatgpt) body.temperature = options.temperature;
  if (context.tools !== undefined && context.tools.length > 0) body.tools = context.tools.map(functionTool);
  if (model.reasoning) {
    const effort = reasoningEffort(options.reasoning);
    if (effort !== undefined) body.reasoning = { effort, summary: "auto" };
    // Always ask for the encrypted reasoning: with store:false it is the only way to replay it.
    body.include = ["reasoning.encrypted_content"];
  }
  return body;
}

/** Headers for session affinity: OpenAI routes requests of one session to the same prompt cache. */
export function responsesHeaders(model: Model, options: StreamOptions): Record<string, string> {
  if (options.sessionId === undefined || options.cacheRetention === "none") return {};
  const headers: Record<string, string> = { "x-client-request-id": options.sessionId };
  if (model.compat?.sendSessionIdHeader !== false) headers.session_id = options.sessionId;
  return headers;
}

function functionTool(tool: ToolSpec): InputItem {
  return {
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  };
}

/** The `input` array: the system prompt, then each message as the item types the API defines. */
export function toInputItems(history: readonly Message[], systemPrompt: string | undefined, model: Model): InputItem[] {
  const items: InputItem[] = [];
  if (systemPrompt !== undefined && systemPrompt !== "")
    items.push({ role: model.reasoning ? "developer" : "system", content: wellFormed(systemPrompt) });
  for (const message of history) {
    if (message.role === "user") {
      const user = userItem(message.content);
      if (user !== undefined) items.push(user);
    } else if (message.role === "assistant") {
      items.push(...assistantItems(message, model));
    } else {
      items.push(functionCallOutput(message, model));
    }
  }
  return items;
}

function userItem(content: string | Array<TextContent | ImageContent>): InputItem | undefined {
  const parts = typeof content === "string" ? [{ type: "text", text: content } as TextContent] : content;
  if (parts.length === 0) return undefined;
  return { role: "user", content: parts.map(inputPart) };
}

function inputPart(part: TextContent | ImageContent): InputItem {
  return part.type === "text"
    ? { type: "input_text", text: wellFormed(part.text) }
    : { type: "input_image", detail: "auto", image_url: imageDataUrl(part) };
}

/**
 * An assistant turn as output items, in order: reasoning items (this model's, from the thinking block's
 * signature, verbatim), messages (with their item id when known), and function calls.
 */
function assistantItems(message: AssistantMessage, model: Model): InputItem[] {
  const items: InputItem[] = [];
  const same = isSameModel(message, model);
  // A sibling model of the same API cannot see this model's reasoning items, and OpenAI refuses a
  // function_call item id that was paired with a reasoning item it does not get: send calls without id.
  const dropCallItemIds = !same && message.provider === model.provider && message.api === model.api;
  for (const block of message.content) {
    if (block.type === "thinking") {
      const item = same && block.thinkingSignature !== undefined ? reasoningItem(block.thinkingSignature) : undefined;
      if (item !== undefined) items.push(item);
    } else if (block.type === "text") {
      const signature = same ? parseTextSignature(block.textSignature) : undefined;
      if (signature === undefined) {
        items.push({ role: "assistant", content: wellFormed(block.text) });
      } else {
        const item: InputItem = {
          type: "message",
          role: "assistant",
          id: signature.id,
          status: "completed",
          content: [{ type: "output_text", text: wellFormed(block.text), annotations: [] }],
        };
        if (signature.phase !== undefined) item.phase = signature.phase;
        items.push(item);
      }
    } else {
      const call: InputItem = {
        type: "function_call",
        call_id: callIdPart(block.id),
        name: block.name,
        arguments: JSON.stringify(block.arguments),
      };
      const itemId = itemIdPart(block.id);
      if (itemId !== undefined && !dropCallItemIds) call.id = itemId;
      items.push(call);
    }
  }
  return items;
}

/** A stored reasoning item, or undefined when the signature is not one (a corrupted session line). */
function reasoningItem(signature: string): InputItem | undefined {
  try {
    const item = JSON.parse(signature) as unknown;
    return item !== null && typeof item === "object" && (item as { type?: unknown }).type === "reasoning"
      ? (item as InputItem)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A text signature: the message item id, or pi's `{"v":1,"id":...,"phase":...}` form. */
function parseTextSignature(signature: string | undefined): { id: string; phase?: string } | undefined {
  if (signature === undefined || signature === "") return undefined;
  if (signature.startsWith("{")) {
    try {
      const parsed = JSON.parse(signature) as { id?: unknown; phase?: unknown };
      if (typeof parsed.id === "string")
        return typeof parsed.phase === "string" ? { id: parsed.id, phase: parsed.phase } : { id: parsed.id };
    } catch {
      return undefined;
    }
    return undefined;
  }
  return { id: signature };
}

/** A tool result: text output, or input parts when it carries images the model can see. */
function functionCallOutput(result: ToolResultMessage, model: Model): InputItem {
  const text = result.content
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join("\n");
  const images = result.content.filter((b): b is ImageContent => b.type === "image");
  const callId = callIdPart(result.toolCallId);
  if (images.length > 0 && model.input.includes("image")) {
    const parts: InputItem[] = text === "" ? [] : [inputPart({ type: "text", text })];
    for (const image of images) parts.push(inputPart(image));
    return { type: "function_call_output", call_id: callId, output: parts };
  }
  return {
    type: "function_call_output",
    call_id: callId,
    output: wellFormed(text !== "" ? text : images.length > 0 ? "(see attached image)" : ""),
  };
}
