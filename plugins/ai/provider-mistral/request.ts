/**
 * The request body Mistral's chat completions endpoint takes, in its wire spelling: the system prompt,
 * the history (after the cross-provider handoff), tools, sampling, thinking and the prompt-cache key.
 */
import { prepareHistory } from "pi-host";
import type { Context, ImageContent, Message, Model, StreamOptions, TextContent } from "pi-host";
import { mistralToolCallIds } from "./tool-ids.js";

/** The body sent to `/v1/chat/completions`. */
export type MistralBody = { model: string; stream: true; messages: unknown[] } & Record<string, unknown>;

type WirePart = { type: "text"; text: string } | { type: "image_url"; image_url: string };

/** The body for one request to `model`. */
export function buildMistralBody(model: Model, context: Context, options: StreamOptions): MistralBody {
  const ids = mistralToolCallIds();
  // Every id goes through the rule, Mistral's own included (they pass unchanged), so results follow calls.
  const history = prepareHistory(context.messages, model, ids).map((m) => withIds(m, ids));
  const images = model.input.includes("image");
  const messages: unknown[] = [];
  if (context.systemPrompt !== undefined && context.systemPrompt !== "") {
    messages.push({ role: "system", content: context.systemPrompt });
  }
  for (const message of history) {
    const wire = toWire(message, images);
    if (wire !== undefined) messages.push(wire);
  }
  const body: MistralBody = { model: model.id, stream: true, messages };
  if (context.tools !== undefined && context.tools.length > 0) {
    body.tools = context.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters, strict: false },
    }));
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  // Every reasoning model pi lists for Mistral takes "high" at any level above off.
  if (model.reasoning && options.reasoning !== undefined && options.reasoning !== "off") body.reasoning_effort = "high";
  if (options.sessionId !== undefined && options.cacheRetention !== "none") body.prompt_cache_key = options.sessionId;
  return body;
}

function withIds(message: Message, ids: (id: string) => string): Message {
  if (message.role === "toolResult") return { ...message, toolCallId: ids(message.toolCallId) };
  if (message.role !== "assistant") return message;
  return {
    ...message,
    content: message.content.map((block) => (block.type === "toolCall" ? { ...block, id: ids(block.id) } : block)),
  };
}

function parts(content: Array<TextContent | ImageContent>, images: boolean): WirePart[] {
  const out: WirePart[] = [];
  for (const block of content) {
    if (block.type === "text") out.push({ type: "text", text: block.text });
    else if (images) out.push({ type: "image_url", image_url: `data:${block.mimeType};base64,${block.data}` });
  }
  return out;
}

function toWire(message: Message, images: boolean): unknown {
  if (message.role === "user") {
    if (typeof message.content === "string") return { role: "user", content: message.content };
    const content = parts(message.content, images);
    return content.length === 0 ? undefined : { role: "user", content };
  }
  if (message.role === "toolResult") {
    const text = message.content
      .filter((block): block is TextContent => block.type === "text")
      .map((block) => block.text)
      .join("\n")
      .trim();
    const prefix = message.isError ? "[tool error] " : "";
    const content: WirePart[] = [{ type: "text", text: `${prefix}${text === "" ? "(no tool output)" : text}` }];
    for (const part of parts(message.content, images)) if (part.type === "image_url") content.push(part);
    return { role: "tool", tool_call_id: message.toolCallId, name: message.toolName, content };
  }
  const content: unknown[] = [];
  const toolCalls: unknown[] = [];
  for (const block of message.content) {
    if (block.type === "text" && block.text.trim() !== "") content.push({ type: "text", text: block.text });
    else if (block.type === "thinking" && block.thinking.trim() !== "")
      content.push({ type: "thinking", thinking: [{ type: "text", text: block.thinking }] });
    else if (block.type === "toolCall")
      toolCalls.push({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) },
        index: 0,
      });
  }
  if (content.length === 0 && toolCalls.length === 0) return undefined;
  return {
    role: "assistant",
    prefix: false,
    ...(content.length > 0 ? { content } : {}),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}
