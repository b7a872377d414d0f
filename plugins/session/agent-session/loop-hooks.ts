/**
 * The loop's hooks, composed from every `hooks` provider in distribution order: the first block of a
 * tool call wins; rewrites of the transcript, the request and a tool result apply in order, each seeing
 * the previous one's output. A provider takes part in a hook only if it implements it.
 */
import {
  type AgentMessage,
  convertToLlm,
  withoutImages,
  type AfterToolCallResult,
  type AgentHooks,
  type Handle,
  type LoopHooks,
  type ManyHandle,
} from "pi-host";
import { withResizedImages } from "./image-resize.js";

/** The hook providers that implement `name`, in distribution order (a capability check, not a lookup by key). */
export function hookProviders(hooks: ManyHandle<AgentHooks>, name: keyof AgentHooks): Array<Handle<AgentHooks>> {
  return hooks.list().filter((h) => typeof h.peek()?.[name] === "function");
}

/**
 * The loop's hooks over every provider of `hooks`, read at each call so a reloaded provider serves the next
 * one. `blockImages` (pi's `images.blockImages`) keeps every image from the model; `autoResize` (pi's
 * `images.autoResize`) scales oversized ones down first.
 */
export function composeHooks(
  hooks: ManyHandle<AgentHooks>,
  options: { blockImages?: boolean; autoResize?: boolean } = {},
): LoopHooks {
  return {
    convertToLlm: async (messages) => {
      const converted = convertToLlm(messages);
      if (options.blockImages) return withoutImages(converted);
      return options.autoResize ? withResizedImages(converted) : converted;
    },
    transformContext: async (messages, signal) => {
      let current = messages;
      for (const h of hookProviders(hooks, "transformContext"))
        current = (await h.api.transformContext(current, signal)) ?? current;
      return current;
    },
    prepareRequest: async (request) => {
      let current = request;
      for (const h of hookProviders(hooks, "prepareRequest"))
        current = (await h.api.prepareRequest(current)) ?? current;
      return current;
    },
    beforeToolCall: async (call, signal) => {
      for (const h of hookProviders(hooks, "beforeToolCall")) {
        const verdict = await h.api.beforeToolCall(call, signal);
        if (verdict?.block) return verdict;
      }
      return undefined;
    },
    endMessage: (message) => replaceMessage(hooks, message),
    afterToolCall: async (call, signal) => {
      let merged: AfterToolCallResult | undefined;
      let result = call.result;
      let isError = call.isError;
      for (const h of hookProviders(hooks, "afterToolCall")) {
        const change = await h.api.afterToolCall({ ...call, result, isError }, signal);
        if (change === undefined) continue;
        merged = { ...merged, ...change };
        result = {
          ...result,
          ...(change.content !== undefined && { content: change.content }),
          ...(change.details !== undefined && { details: change.details }),
        };
        isError = change.isError ?? isError;
      }
      return merged;
    },
  };
}

/**
 * The message a run's message ends with: each provider that answers with a promise may replace it, in
 * order, each seeing the previous replacement. Undefined at once when none answers, so the loop does not
 * wait; a replacement with another role is ignored (pi requires the same role).
 */
export function replaceMessage(
  hooks: ManyHandle<AgentHooks>,
  message: AgentMessage,
): Promise<AgentMessage | undefined> | undefined {
  const providers = hookProviders(hooks, "endMessage");
  if (providers.length === 0) return undefined;
  let chain: Promise<AgentMessage> | undefined;
  for (const h of providers) {
    if (chain === undefined) {
      const first = askToEnd(h, message);
      if (first !== undefined) chain = first.then((next) => next ?? message);
    } else {
      chain = chain.then((current) => askToEnd(h, current)?.then((next) => next ?? current) ?? current);
    }
  }
  return chain?.then((final) => (final === message ? undefined : final));
}

function askToEnd(h: Handle<AgentHooks>, message: AgentMessage): Promise<AgentMessage | undefined> | undefined {
  let answer: Promise<AgentMessage | undefined> | undefined;
  try {
    answer = h.api.endMessage(message);
  } catch {
    // A provider reloading right now (its handle held) changes nothing.
    return undefined;
  }
  return answer?.then(
    (next) => (next !== undefined && next !== null && next.role === message.role ? next : undefined),
    () => undefined,
  );
}
