/**
 * Builds the body of one streamed `POST /v1/messages`: the cross-provider-safe history, the system
 * prompt, tools as JSON Schema, thinking, and the three prompt-cache breakpoints (system prompt, last
 * tool, last user block) that let Anthropic reuse everything up to the newest turn.
 */
import type {
  CacheControlEphemeral,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import { prepareHistory, type Context, type Model, type StreamOptions, type ToolSpec } from "pi-host";
import { anthropicToolCallId, convertMessages, wellFormed } from "./messages.js";
import { planThinking } from "./thinking.js";

/** The request body for `model` and `context`; throws one line when the input cannot be sent (a bad tool schema). */
export function buildRequestBody(model: Model, context: Context, options: StreamOptions): MessageCreateParamsStreaming {
  const cacheControl = cacheControlFor(model, options.cacheRetention);
  const plan = planThinking(model, options);
  const messages = convertMessages(prepareHistory(context.messages, model, anthropicToolCallId));
  const body: MessageCreateParamsStreaming = { model: model.id, max_tokens: plan.maxTokens, messages, stream: true };

  if (context.systemPrompt !== undefined && context.systemPrompt.trim() !== "") {
    const system: TextBlockParam = { type: "text", text: wellFormed(context.systemPrompt) };
    if (cacheControl) system.cache_control = cacheControl;
    body.system = [system];
  }
  if (context.tools !== undefined && context.tools.length > 0) {
    const tools = context.tools.map(toolDefinition);
    if (cacheControl) tools[tools.length - 1]!.cache_control = cacheControl;
    body.tools = tools;
  }
  if (plan.thinking) body.thinking = plan.thinking;
  if (plan.effort) body.output_config = { effort: plan.effort };
  // `options.temperature` is not sent: the API version this SDK speaks has no temperature parameter.
  if (cacheControl) markLastUserBlock(messages, cacheControl);
  return body;
}

/**
 * The cache breakpoint to use, or undefined for `cacheRetention: "none"`. The default is the 5-minute
 * cache; `"long"` asks for one hour unless the model's compat says the endpoint cannot keep it.
 */
export function cacheControlFor(
  model: Model,
  retention: StreamOptions["cacheRetention"],
): CacheControlEphemeral | undefined {
  if (retention === "none") return undefined;
  if (retention === "long" && model.compat?.supportsLongCacheRetention !== false)
    return { type: "ephemeral", ttl: "1h" };
  return { type: "ephemeral" };
}

/** A tool as the API declares it: its TypeBox parameters are already JSON Schema, minus TypeBox's symbol keys. */
export function toolDefinition(tool: ToolSpec): Tool {
  const schema = JSON.parse(JSON.stringify(tool.parameters ?? {})) as Record<string, unknown>;
  if (schema.type !== "object") {
    throw new Error(
      `tool "${tool.name}": parameters must be a JSON Schema object (type "object"), got ${JSON.stringify(schema.type ?? null)}`,
    );
  }
  return { name: tool.name, description: tool.description, input_schema: schema as Tool["input_schema"] };
}

/** Puts the breakpoint on the last block of the last user message, so the whole history up to it is cached. */
function markLastUserBlock(messages: MessageParam[], cacheControl: CacheControlEphemeral): void {
  let lastUser: MessageParam | undefined;
  for (const message of messages) if (message.role === "user") lastUser = message;
  if (lastUser === undefined || typeof lastUser.content === "string") return;
  const lastBlock = lastUser.content.at(-1);
  if (
    lastBlock !== undefined &&
    (lastBlock.type === "text" || lastBlock.type === "image" || lastBlock.type === "tool_result")
  ) {
    lastBlock.cache_control = cacheControl;
  }
}
