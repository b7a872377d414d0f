/**
 * How session events go out on the wire (JSON mode, RPC mode), shared by every mode that serializes
 * events so clients see one shape. The default is pi 1.6.0's (its docs/json.md): only `message_update`
 * changes. It drops the cumulative `message` and the nested `partial`, carries the message's latest
 * `usage` at the top level, and `toolcall_start` gains the call's `id` and `toolName`. `text_end` and
 * `thinking_end` keep their `content`. `turn_end` and `agent_end` carry whole messages, as in pi.
 *
 * `--compat-events` (or `--compat-events=0.73`) sends the session's own objects, which are pi 0.73's
 * shapes: the whole partial message in every `message_update`. Every other event passes through unchanged.
 */
import type { SessionEvent } from "../../contracts/agent-session.js";
import type { AssistantMessage } from "../../contracts/ai/index.js";
import type { AssistantMessageEvent, Usage } from "../../contracts/ai/index.js";

/** pi 1.6.0's wire `message_update`: the nested event without `partial`, and the message's usage. */
export interface WireMessageUpdate {
  type: "message_update";
  usage: Usage | undefined;
  assistantMessageEvent: Record<string, unknown>;
}

/** The record written for `event`; serialize it at once, since streamed messages keep changing. */
export function eventRecord(event: SessionEvent, compatEvents: boolean): unknown {
  if (compatEvents || event.type !== "message_update") return event;
  const message = event.message as Partial<AssistantMessage>;
  const update: WireMessageUpdate = {
    type: "message_update",
    usage: message.usage === undefined ? undefined : { ...message.usage, cost: { ...message.usage.cost } },
    assistantMessageEvent: deltaOf(event.assistantMessageEvent),
  };
  return update;
}

/** A streaming event without the partial message; `toolcall_start` names the call it starts. */
function deltaOf(event: AssistantMessageEvent): Record<string, unknown> {
  if (!("partial" in event)) return { ...event };
  const { partial, ...delta } = event;
  if (delta.type === "toolcall_start") {
    const block = partial.content[delta.contentIndex];
    if (block?.type === "toolCall") return { ...delta, id: block.id, toolName: block.name };
  }
  return delta;
}
