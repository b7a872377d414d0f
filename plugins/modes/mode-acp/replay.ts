/**
 * A stored conversation as the session updates `session/load` replays, so an editor rebuilds the thread
 * it shows: user messages as user chunks, answers as message and thought chunks, each tool call once with
 * its final status and result. Session-level messages (a user's shell command, summaries of compacted or
 * left branches, extension messages) are shown as the model reads them.
 */
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentMessage } from "pi-host";
import type { AssistantMessage, ImageContent, TextContent, ToolResultMessage } from "pi-host";
import { describeToolCall, resultContent } from "./tool-calls.js";

/** The updates that replay `messages` (the session's context, oldest first). */
export function replayUpdates(messages: readonly AgentMessage[], cwd: string): SessionUpdate[] {
  const results = new Map<string, ToolResultMessage>();
  for (const m of messages)
    if (m.role === "toolResult") results.set((m as ToolResultMessage).toolCallId, m as ToolResultMessage);

  const updates: SessionUpdate[] = [];
  messages.forEach((m, index) => {
    const messageId = `replay-${index}`;
    if (m.role === "user") {
      const content = (m as { content: string | Array<TextContent | ImageContent> }).content;
      for (const block of blocksOf(content))
        updates.push({ sessionUpdate: "user_message_chunk", content: block, messageId });
    } else if (m.role === "assistant") {
      for (const block of (m as AssistantMessage).content) {
        if (block.type === "text" && block.text !== "")
          updates.push({
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: block.text },
            messageId,
          });
        else if (block.type === "thinking" && block.thinking !== "")
          updates.push({
            sessionUpdate: "agent_thought_chunk",
            content: { type: "text", text: block.thinking },
            messageId,
          });
        else if (block.type === "toolCall") {
          const view = describeToolCall(block.name, block.arguments, cwd);
          const result = results.get(block.id);
          const failed = result === undefined || result.isError;
          updates.push({
            sessionUpdate: "tool_call",
            toolCallId: block.id,
            title: view.title,
            kind: view.kind,
            status: failed ? "failed" : "completed",
            rawInput: block.arguments,
            locations: view.locations,
            content: [...(failed ? [] : view.diffs), ...resultContent(result?.content)],
          });
        }
      }
    } else if (m.role !== "toolResult") {
      const text = sessionMessageText(m);
      if (text !== undefined)
        updates.push({
          sessionUpdate: m.role === "bashExecution" ? "user_message_chunk" : "agent_message_chunk",
          content: { type: "text", text },
          messageId,
        });
    }
  });
  return updates;
}

function blocksOf(content: string | Array<TextContent | ImageContent>): ContentBlock[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return content.map((b) =>
    b.type === "text" ? { type: "text", text: b.text } : { type: "image", data: b.data, mimeType: b.mimeType },
  );
}

/** How a session-level message reads in the thread, or undefined when it is not shown. */
function sessionMessageText(m: AgentMessage): string | undefined {
  const c = m as Record<string, any>;
  if (m.role === "bashExecution") return `$ ${c.command}${c.output ? `\n${c.output}` : ""}`;
  if (m.role === "compactionSummary") return `Summary of the earlier conversation:\n\n${c.summary}`;
  if (m.role === "branchSummary") return `Summary of the branch left earlier:\n\n${c.summary}`;
  if (m.role === "custom" && c.display !== false) {
    if (typeof c.content === "string") return c.content;
    if (Array.isArray(c.content))
      return c.content.map((b: { type: string; text?: string }) => (b.type === "text" ? b.text : "")).join("");
  }
  return undefined;
}
