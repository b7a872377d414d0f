/**
 * The linear event shape of JSON mode. pi repeats the whole partial message in every `message_update`
 * (twice: as `message` and as `assistantMessageEvent.partial`), and again in `turn_end` and `agent_end`,
 * so a long answer costs quadratic bytes. Here every piece of a message is sent once as it streams and
 * once whole when it ends:
 *
 * - `message_start` and `message_end` carry the whole message, as in pi (message_end is authoritative).
 * - `message_update` carries `assistantMessageEvent` without `partial`, and `message` is a stub naming
 *   the message the update belongs to (its role and timestamp, as in its message_start). `text_end` / `thinking_end`
 *   drop `content` (the deltas already built it); `toolcall_start` gains `toolCall` with the call's id and
 *   name, which pi only had inside the partial.
 * - `turn_end` and `agent_end` list stubs of the messages whose `message_end` lines came before them.
 *
 * A client rebuilds a message by starting from `message_start`, appending each delta at `contentIndex`
 * and replacing it with `message_end`. Every other event is passed through unchanged.
 */
import type { SessionEvent } from "../../contracts/agent-session.js";
import type { AgentMessage } from "../../contracts/agent.js";
import type { AssistantMessageEvent } from "../../contracts/ai/index.js";

/** Enough of a message to know which one an event is about; tool results also name their call. */
export interface MessageStub {
  role: string;
  timestamp: number;
  toolCallId?: string;
}

/** The record JSON mode writes for a session event; serialize it at once (streamed messages keep changing). */
export function deltaEvent(event: SessionEvent): unknown {
  switch (event.type) {
    case "message_update":
      return { type: event.type, message: messageStub(event.message), assistantMessageEvent: slimUpdate(event.assistantMessageEvent) };
    case "turn_end":
      return { type: event.type, message: messageStub(event.message), toolResults: event.toolResults.map(messageStub) };
    case "agent_end":
      return { type: event.type, messages: event.messages.map(messageStub) };
    default:
      return event;
  }
}

/** The identifying fields of a message, without its content. */
export function messageStub(message: AgentMessage): MessageStub {
  const stub: MessageStub = { role: message.role, timestamp: message.timestamp };
  const toolCallId = (message as { toolCallId?: unknown }).toolCallId;
  if (typeof toolCallId === "string") stub.toolCallId = toolCallId;
  return stub;
}

/** The update without the partial message and without text the deltas already carried. */
function slimUpdate(event: AssistantMessageEvent): Record<string, unknown> {
  if (event.type === "done" || event.type === "error") return { ...event };
  const { partial, ...rest } = event;
  if (rest.type === "text_end" || rest.type === "thinking_end") {
    const { content: _content, ...withoutContent } = rest;
    return withoutContent;
  }
  if (rest.type === "toolcall_start") {
    const block = partial.content[rest.contentIndex];
    if (block?.type === "toolCall") return { ...rest, toolCall: { type: "toolCall", id: block.id, name: block.name } };
  }
  return rest;
}
