/**
 * The loop's hooks, composed from every `hooks` provider in distribution order: the first block of a
 * tool call wins; rewrites of the transcript, the request and a tool result apply in order, each seeing
 * the previous one's output. A provider takes part in a hook only if it implements it.
 */
import {
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
