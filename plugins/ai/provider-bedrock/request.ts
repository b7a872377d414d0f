/**
 * The ConverseStream request for one turn: the history in Bedrock's shape (user / assistant messages of
 * content blocks, all tool results of a turn in one user message), the system prompt, tools, inference
 * settings, thinking fields and, for Claude, prompt cache points. Runs on a history `prepareHistory` has
 * made valid for this model, so foreign thinking is plain text and tool-call ids fit Bedrock's rule.
 */
import type {
  ContentBlock,
  ConverseStreamCommandInput,
  ImageFormat,
  Message as BedrockMessage,
  SystemContentBlock,
  Tool,
  ToolResultContentBlock,
} from "@aws-sdk/client-bedrock-runtime";
import {
  idRule,
  prepareHistory,
  type AssistantMessage,
  type Context,
  type ImageContent,
  type Message,
  type Model,
  type StreamOptions,
  type TextContent,
  type ToolResultMessage,
} from "pi-host";
import { isClaude, supportsCachePoints } from "./model-family.js";
import { thinkingFields } from "./thinking.js";

/** Bedrock's tool-use ids: letters, digits, `_` and `-`, at most 64 characters. */
const BEDROCK_TOOL_CALL_IDS = idRule(/^[a-zA-Z0-9_-]+$/, 64);

/** Bedrock rejects blank text blocks; a message that would be empty carries this instead. */
const EMPTY_TEXT = "<empty>";

const IMAGE_FORMATS: Record<string, ImageFormat> = {
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** Builds the command input for streaming `context` to `model`. */
export function buildConverseInput(
  model: Model,
  context: Context,
  options: StreamOptions,
  env: NodeJS.ProcessEnv,
): ConverseStreamCommandInput {
  const caching = options.cacheRetention !== "none" && supportsCachePoints(model, env);
  const cachePoint = {
    cachePoint: { type: "default" as const, ...(options.cacheRetention === "long" && { ttl: "1h" as const }) },
  };
  const messages = toBedrockMessages(prepareHistory(context.messages, model, BEDROCK_TOOL_CALL_IDS), model);
  const last = messages.at(-1);
  if (caching && last?.role === "user") last.content!.push(cachePoint as ContentBlock);
  const system: SystemContentBlock[] | undefined = context.systemPrompt
    ? [{ text: context.systemPrompt }, ...(caching ? [cachePoint as SystemContentBlock] : [])]
    : undefined;
  const thinking = thinkingFields(model, options, options.maxTokens ?? (isClaude(model) ? model.maxTokens : undefined));
  return {
    modelId: model.id,
    messages,
    ...(system !== undefined && { system }),
    inferenceConfig: {
      ...(thinking.maxTokens !== undefined && { maxTokens: thinking.maxTokens }),
      ...(options.temperature !== undefined && { temperature: options.temperature }),
    },
    ...(context.tools !== undefined &&
      context.tools.length > 0 && {
        toolConfig: {
          tools: context.tools.map(
            (tool): Tool => ({
              toolSpec: {
                name: tool.name,
                description: tool.description,
                inputSchema: { json: tool.parameters as never },
              },
            }),
          ),
        },
      }),
    ...(thinking.fields !== undefined && { additionalModelRequestFields: thinking.fields as never }),
  };
}

function toBedrockMessages(history: readonly Message[], model: Model): BedrockMessage[] {
  const out: BedrockMessage[] = [];
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    if (message.role === "user") {
      const blocks =
        typeof message.content === "string" ? textBlocks(message.content) : message.content.flatMap(userBlock);
      out.push({ role: "user", content: blocks.length > 0 ? blocks : [{ text: EMPTY_TEXT }] });
    } else if (message.role === "assistant") {
      const blocks = assistantBlocks(message, model);
      if (blocks.length > 0) out.push({ role: "assistant", content: blocks });
    } else {
      // Bedrock wants all results of one assistant turn in one user message.
      const results: ContentBlock[] = [];
      while (i < history.length && history[i]!.role === "toolResult")
        results.push(toolResultBlock(history[i++] as ToolResultMessage));
      i--;
      out.push({ role: "user", content: results });
    }
  }
  return out;
}

function textBlocks(text: string): ContentBlock[] {
  return text.trim() === "" ? [] : [{ text }];
}

function userBlock(block: TextContent | ImageContent): ContentBlock[] {
  return block.type === "text" ? textBlocks(block.text) : [imageBlock(block)];
}

function imageBlock(image: ImageContent): ContentBlock {
  const format = IMAGE_FORMATS[image.mimeType];
  if (format === undefined) throw new Error(`Bedrock does not accept images of type ${image.mimeType}`);
  return { image: { format, source: { bytes: Buffer.from(image.data, "base64") } } };
}

function assistantBlocks(message: AssistantMessage, model: Model): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const block of message.content) {
    if (block.type === "text") blocks.push(...textBlocks(block.text));
    else if (block.type === "toolCall")
      blocks.push({ toolUse: { toolUseId: block.id, name: block.name, input: block.arguments ?? {} } });
    else if (block.redacted) {
      // Encrypted reasoning is replayed as the bytes it came as (kept as base64 in the signature).
      if (block.thinkingSignature)
        blocks.push({ reasoningContent: { redactedContent: Buffer.from(block.thinkingSignature, "base64") } });
    } else if (block.thinking.trim() !== "") {
      // Only Claude takes a signature, and rejects signed-looking reasoning without one: send that as text.
      if (!isClaude(model)) blocks.push({ reasoningContent: { reasoningText: { text: block.thinking } } });
      else if (block.thinkingSignature)
        blocks.push({
          reasoningContent: { reasoningText: { text: block.thinking, signature: block.thinkingSignature } },
        });
      else blocks.push({ text: block.thinking });
    }
  }
  return blocks;
}

function toolResultBlock(result: ToolResultMessage): ContentBlock {
  const content: ToolResultContentBlock[] = [];
  for (const block of result.content) {
    if (block.type === "image") content.push({ image: (imageBlock(block) as { image: never }).image });
    else if (block.text.trim() !== "") content.push({ text: block.text });
  }
  if (content.length === 0) content.push({ text: EMPTY_TEXT });
  return { toolResult: { toolUseId: result.toolCallId, content, status: result.isError ? "error" : "success" } };
}
