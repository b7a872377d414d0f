/** Small message helpers the session's parts share: building a user message and reading a message's text. */
import type { AgentMessage, AssistantMessage, ImageContent, UserMessage } from "pi-host";

/** A user message from typed text and optional images, as the loop expects it. */
export function userMessage(text: string, images?: ImageContent[]): UserMessage {
  return { role: "user", content: images?.length ? [{ type: "text", text }, ...images] : text, timestamp: Date.now() };
}

/** The text blocks of a message joined; images and tool calls are left out. */
export function messageText(message: AgentMessage): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content.map((b: { type: string; text?: string }) => (b.type === "text" ? b.text : "")).join("")
    : "";
}

/** The last assistant message of `messages`, if any: what a run's outcome is judged by. */
export function lastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant") return m as AssistantMessage;
  }
  return undefined;
}
