/**
 * Turns pi's message history into Anthropic `messages`. The history has already been through
 * `prepareHistory`, so everything here is about the Messages API's own rules: tool results travel as
 * `tool_result` blocks inside a user message (consecutive ones merged), thinking is replayed with its
 * signature, redacted thinking goes back as `redacted_thinking`, images are base64 blocks, and empty
 * text blocks (which the API rejects) are left out.
 */
import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import {
  idRule,
  type AssistantMessage,
  type ImageContent,
  type Message,
  type TextContent,
  type ToolResultMessage,
  type UserMessage,
} from "pi-host";

/** Anthropic accepts tool-use ids matching ^[a-zA-Z0-9_-]{1,64}$; ids from other providers are rewritten. */
export const anthropicToolCallId = idRule(/^[a-zA-Z0-9_-]{1,64}$/, 64);

/** Converts a prepared history to request messages, in order. */
export function convertMessages(history: readonly Message[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    if (message.role === "user") {
      const content = userContent(message);
      if (content.length > 0) out.push({ role: "user", content });
    } else if (message.role === "assistant") {
      const content = assistantContent(message);
      if (content.length > 0) out.push({ role: "assistant", content });
    } else {
      const results: ToolResultBlockParam[] = [];
      while (i < history.length && history[i]!.role === "toolResult") {
        results.push(toolResultBlock(history[i] as ToolResultMessage));
        i++;
      }
      i--;
      out.push({ role: "user", content: results });
    }
  }
  return out;
}

function userContent(message: UserMessage): Array<TextBlockParam | ImageBlockParam> {
  if (typeof message.content === "string") return message.content.trim() === "" ? [] : [textBlock(message.content)];
  return mediaBlocks(message.content);
}

function assistantContent(message: AssistantMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text.trim() !== "") blocks.push(textBlock(block.text));
    } else if (block.type === "thinking") {
      if (block.redacted) {
        if (block.thinkingSignature) blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
      } else if (block.thinking.trim() === "") {
        // An empty thinking block is dropped.
      } else if (block.thinkingSignature) {
        blocks.push({ type: "thinking", thinking: wellFormed(block.thinking), signature: block.thinkingSignature });
      } else {
        // Unsigned thinking (an interrupted stream) would be refused as thinking; it stays as plain text.
        blocks.push(textBlock(block.thinking));
      }
    } else {
      blocks.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments ?? {} });
    }
  }
  return blocks;
}

function toolResultBlock(message: ToolResultMessage): ToolResultBlockParam {
  const content = mediaBlocks(message.content);
  return {
    type: "tool_result",
    tool_use_id: message.toolCallId,
    ...(content.length > 0 ? { content } : {}),
    is_error: message.isError,
  };
}

function mediaBlocks(content: Array<TextContent | ImageContent>): Array<TextBlockParam | ImageBlockParam> {
  const blocks: Array<TextBlockParam | ImageBlockParam> = [];
  for (const block of content) {
    if (block.type === "text") {
      if (block.text.trim() !== "") blocks.push(textBlock(block.text));
    } else {
      blocks.push({
        type: "image",
        source: { type: "base64", media_type: block.mimeType as Base64ImageSource["media_type"], data: block.data },
      });
    }
  }
  return blocks;
}

function textBlock(text: string): TextBlockParam {
  return { type: "text", text: wellFormed(text) };
}

/** Replaces lone UTF-16 surrogates (cut emoji in tool output), which make the request body invalid JSON for the API. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}
