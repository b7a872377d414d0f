/**
 * Turns messages into one labelled transcript for the summarizer. Sent as plain text inside a user
 * prompt, the conversation reads as material to summarize, not as a chat the model should continue.
 */
import type { Message } from "pi-host";

/** Tool results are the bulk of a coding session; the summary needs their gist, not their bytes. */
export const TOOL_RESULT_MAX_CHARS = 2_000;

/** Keeps the start of a long text and says how much was left out. */
export function truncateForSummary(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

/**
 * pi's transcript format: `[User]:`, `[Assistant thinking]:`, `[Assistant]:`, `[Assistant tool calls]:
 * name(key=json, ...)` and `[Tool result]:` (cut at TOOL_RESULT_MAX_CHARS), blocks separated by a
 * blank line. Images are left out; they cannot be summarized as text.
 */
export function serializeConversation(messages: readonly Message[]): string {
  const blocks: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = typeof message.content === "string" ? message.content : textOf(message.content);
      if (text) blocks.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      const thinking: string[] = [];
      const text: string[] = [];
      const calls: string[] = [];
      for (const block of message.content) {
        if (block.type === "thinking") thinking.push(block.thinking);
        else if (block.type === "text") text.push(block.text);
        else calls.push(`${block.name}(${formatArguments(block.arguments)})`);
      }
      if (thinking.length > 0) blocks.push(`[Assistant thinking]: ${thinking.join("\n")}`);
      if (text.length > 0) blocks.push(`[Assistant]: ${text.join("\n")}`);
      if (calls.length > 0) blocks.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else {
      const text = textOf(message.content);
      if (text) blocks.push(`[Tool result]: ${truncateForSummary(text, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return blocks.join("\n\n");
}

function textOf(content: ReadonlyArray<{ type: string; text?: string }>): string {
  return content
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("");
}

function formatArguments(args: Record<string, unknown> | undefined): string {
  return Object.entries(args ?? {})
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(", ");
}
