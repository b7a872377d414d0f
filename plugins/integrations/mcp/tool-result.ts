/**
 * Turns what an MCP server returns (tool results, resources, prompts) into a tool result for the model:
 * text stays text, images stay images, everything else is described in a line; output is cut at pi's
 * tool limits (2,000 lines or 50 KB) with a note saying so, like every built-in tool.
 */
import type { ImageContent, TextContent } from "pi-host";
import { TOOL_LIMITS, type ToolResult } from "pi-host";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";

type Block = TextContent | ImageContent;

/** What `details` of an MCP tool result holds, for logs and UIs. */
export interface McpResultDetails {
  server: string;
  tool: string;
  structuredContent?: unknown;
  truncated?: boolean;
}

/** An MCP `tools/call` result as a tool result. `isError` results stay errors. */
export function toolResultFromMcp(result: CallToolResult, server: string, tool: string): ToolResult<McpResultDetails> {
  const blocks: Block[] = [];
  for (const item of result.content ?? []) blocks.push(...contentBlock(item as McpContent));
  if (blocks.length === 0 && result.structuredContent !== undefined) {
    blocks.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
  }
  if (blocks.length === 0)
    blocks.push({ type: "text", text: result.isError ? "(the tool failed without a message)" : "(no output)" });
  const { content, truncated } = limitText(blocks);
  return {
    content,
    details: {
      server,
      tool,
      ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
      ...(truncated && { truncated }),
    },
    ...(result.isError === true && { isError: true }),
  };
}

/** A `resources/read` result as a tool result. */
export function resourceResult(result: ReadResourceResult, server: string): ToolResult<McpResultDetails> {
  const blocks = result.contents.flatMap((item) => contentBlock({ type: "resource", resource: item } as McpContent));
  const { content, truncated } = limitText(
    blocks.length > 0 ? blocks : [{ type: "text", text: "(the resource is empty)" }],
  );
  return { content, details: { server, tool: "read_resource", ...(truncated && { truncated }) } };
}

/** A `prompts/get` result as a tool result: each message as `role: text`. */
export function promptResult(result: GetPromptResult, server: string): ToolResult<McpResultDetails> {
  const blocks: Block[] = [];
  if (result.description) blocks.push({ type: "text", text: result.description });
  for (const message of result.messages) {
    for (const block of contentBlock(message.content as McpContent)) {
      blocks.push(block.type === "text" ? { type: "text", text: `${message.role}: ${block.text}` } : block);
    }
  }
  const { content, truncated } = limitText(blocks);
  return { content, details: { server, tool: "get_prompt", ...(truncated && { truncated }) } };
}

/** The content kinds of the MCP spec (2025-06-18), loosely typed so newer kinds fall through to a description. */
type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name?: string; mimeType?: string; description?: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: string; [key: string]: unknown };

function contentBlock(item: McpContent): Block[] {
  switch (item.type) {
    case "text":
      return [{ type: "text", text: String((item as { text: unknown }).text ?? "") }];
    case "image": {
      const image = item as { data: string; mimeType: string };
      return [{ type: "image", data: image.data, mimeType: image.mimeType }];
    }
    case "audio": {
      const audio = item as { data: string; mimeType: string };
      return [{ type: "text", text: `[audio ${audio.mimeType}, ${base64Bytes(audio.data)} bytes, not shown]` }];
    }
    case "resource_link": {
      const link = item as { uri: string; name?: string; mimeType?: string; description?: string };
      const about = [link.mimeType, link.description].filter(Boolean).join(", ");
      return [{ type: "text", text: `[resource ${link.name ?? link.uri}: ${link.uri}${about ? ` (${about})` : ""}]` }];
    }
    case "resource": {
      const resource = (item as { resource: { uri: string; mimeType?: string; text?: string; blob?: string } })
        .resource;
      if (typeof resource.text === "string")
        return [{ type: "text", text: `[resource ${resource.uri}]\n${resource.text}` }];
      if (typeof resource.blob === "string" && resource.mimeType?.startsWith("image/")) {
        return [{ type: "image", data: resource.blob, mimeType: resource.mimeType }];
      }
      return [
        {
          type: "text",
          text: `[resource ${resource.uri}: ${resource.mimeType ?? "binary"}, ${base64Bytes(resource.blob ?? "")} bytes, not shown]`,
        },
      ];
    }
    default:
      return [{ type: "text", text: `[${item.type} content, not shown]` }];
  }
}

function base64Bytes(data: string): number {
  return Buffer.byteLength(data, "base64");
}

/** Cuts the text blocks, together, at pi's limits; images pass. */
function limitText(blocks: Block[]): { content: Block[]; truncated: boolean } {
  let lines = 0;
  let bytes = 0;
  const content: Block[] = [];
  for (const block of blocks) {
    if (block.type !== "text") {
      content.push(block);
      continue;
    }
    const kept: string[] = [];
    for (const line of block.text.split("\n")) {
      const size = Buffer.byteLength(line, "utf8") + 1;
      if (lines + 1 > TOOL_LIMITS.maxLines || bytes + size > TOOL_LIMITS.maxBytes) {
        if (kept.length > 0) content.push({ type: "text", text: kept.join("\n") });
        content.push({
          type: "text",
          text: `[Output truncated at ${TOOL_LIMITS.maxLines} lines or ${TOOL_LIMITS.maxBytes / 1024} KB. Ask the server for less, e.g. a narrower query or a page.]`,
        });
        return { content, truncated: true };
      }
      kept.push(line);
      lines++;
      bytes += size;
    }
    content.push({ type: "text", text: kept.join("\n") });
  }
  return { content, truncated: false };
}
