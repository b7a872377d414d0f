/**
 * How session events go out on the wire (JSON mode, RPC mode). Shared by every mode that serializes
 * events, so clients see one shape. pi repeats the whole partial message in every `message_update`
 * (as `message` and again as `assistantMessageEvent.partial`) and again in `turn_end` and `agent_end`,
 * so a long answer costs quadratic bytes. By default each piece of a message is sent once as it streams
 * and once whole at its end — the same linear shape as JSON mode:
 *
 * - `message_start` and `message_end` carry the whole message (message_end is authoritative).
 * - `message_update`: `message` is a stub naming the message (role, timestamp; tool results: toolCallId);
 *   `assistantMessageEvent` has no `partial`; `text_end`/`thinking_end` drop `content` (the deltas
 *   built it); `toolcall_start` gains `toolCall` with the call's id and name.
 * - `turn_end` and `agent_end` list stubs of messages whose `message_end` came before.
 *
 * `--compat-events` sends pi's exact shapes instead. Every other event passes through unchanged.
 */
import type { SessionEvent } from "../../contracts/agent-session.js";
import type { AgentMessage } from "../../contracts/agent.js";
import type { AssistantMessageEvent } from "../../contracts/ai/index.js";

/** Enough of a message to tell which one an event is about (its message_start carries the rest). */
export interface MessageStub {
  role: string;
  timestamp: number;
  toolCallId?: string;
}

const STUB_FIELDS = ["toolCallId"] as const;

/** The record written for `event`; serialize it at once, since streamed messages keep changing. */
export function eventRecord(event: SessionEvent, compatEvents: boolean): unknown {
  if (compatEvents) return event;
  switch (event.type) {
    case "message_update":
      return {
        type: event.type,
        message: stubOf(event.message),
        assistantMessageEvent: deltaOf(event.assistantMessageEvent),
      };
    case "turn_end":
      return { type: event.type, message: stubOf(event.message), toolResults: event.toolResults.map(stubOf) };
    case "agent_end":
      return { type: event.type, messages: event.messages.map(stubOf) };
    default:
      return event;
  }
}

/** The identifying fields of a message, without its content. */
export function stubOf(message: AgentMessage): MessageStub {
  const fields = message as unknown as Record<string, unknown>;
  const stub: MessageStub = { role: message.role, timestamp: message.timestamp };
  for (const key of STUB_FIELDS) {
    const value = fields[key];
    if (typeof value === "string") stub[key] = value;
  }
  return stub;
}

/** A streaming event without the partial message and without text its deltas already carried. */
function deltaOf(event: AssistantMessageEvent): Record<string, unknown> {
  if (event.type === "done" || event.type === "error") return { ...event };
  const { partial, ...delta } = event;
  if (delta.type === "text_end" || delta.type === "thinking_end") {
    const { content: _content, ...rest } = delta;
    return rest;
  }
  if (delta.type === "toolcall_start") {
    const block = partial.content[delta.contentIndex];
    if (block?.type === "toolCall") return { ...delta, toolCall: { type: "toolCall", id: block.id, name: block.name } };
  }
  return delta;
}
