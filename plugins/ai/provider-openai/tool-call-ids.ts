/**
 * Tool-call id rules for the two OpenAI APIs, applied by `prepareHistory` to calls written by another
 * model. Chat Completions wants a plain id; the Responses API pairs a `call_id` with an output item id
 * that must start with `fc_`, which pi stores together as `${call_id}|${item_id}`.
 */
import { idRule, shortHash } from "pi-host";
import type { ToolCallIdRule } from "pi-host";

const SAFE_ID = /^[a-zA-Z0-9_-]+$/;
const plainCallId = idRule(SAFE_ID, 40);
const responsesCallId = idRule(SAFE_ID, 64);
const RESPONSES_PAIR = /^[a-zA-Z0-9_-]{1,64}\|fc_[a-zA-Z0-9_-]{1,61}$/;

/** The call-id half of a Responses `${call_id}|${item_id}` pair (the whole id when it is not a pair). */
export function callIdPart(id: string): string {
  const bar = id.indexOf("|");
  return bar === -1 ? id : id.slice(0, bar);
}

/** The item-id half of a Responses pair, or undefined when the id is not a pair. */
export function itemIdPart(id: string): string | undefined {
  const bar = id.indexOf("|");
  return bar === -1 ? undefined : id.slice(bar + 1);
}

/**
 * Chat Completions: at most 40 characters of [a-zA-Z0-9_-]. A Responses pair keeps its call id (unique
 * on its own); anything else is cleaned and suffixed with a hash so two ids never collide.
 */
export const completionsToolCallId: ToolCallIdRule = (id) => plainCallId(callIdPart(id));

/**
 * Responses: a valid pair is kept; any other id becomes `${cleaned call id}|fc_${hash of the whole id}`,
 * so the call id stays recognisable and the invented item id is deterministic and `fc_`-prefixed.
 */
export const responsesToolCallId: ToolCallIdRule = (id) => {
  if (RESPONSES_PAIR.test(id)) return id;
  return `${responsesCallId(callIdPart(id))}|fc_${shortHash(id)}`;
};
