/**
 * pi 1.6.0's model-request hooks after `context`, on the request the hooks contract's `prepareRequest`
 * hands over (the last point before the LLM router sends it):
 *
 *   context_with_system     → the transcript with the system prompt as its leading system message;
 *                             what handlers return is the request (its head becomes the system prompt);
 *   before_provider_headers → the request's headers, mutated in place (`null` deletes a header this
 *                             request adds; the model's configured headers are the provider's own);
 *   before_provider_request → the provider's payload, through the stream option `onPayload` every
 *                             provider plugin calls once it built the body; a returned value replaces it.
 */
import type { Context, Message, StreamOptions } from "pi-host";
import type { ExtensionRuntime } from "./runtime.js";

/** A request as prepareRequest sees it. */
export interface PreparedRequest {
  context: Context;
  options: StreamOptions;
}

/** A transcript message as `context_with_system` handlers see it: the model's messages plus system ones. */
type SystemMessage = { role: "system"; content: string; timestamp?: number };

/** The request with the three hooks applied; undefined when no extension handles any of them. */
export async function providerHooks(
  runtime: ExtensionRuntime,
  request: PreparedRequest,
): Promise<PreparedRequest | undefined> {
  const withSystem = runtime.hasHandlers("context_with_system");
  const headers = runtime.hasHandlers("before_provider_headers");
  const payload = runtime.hasHandlers("before_provider_request");
  if (!withSystem && !headers && !payload) return undefined;
  let { context, options } = request;
  if (withSystem) context = await contextWithSystem(runtime, context);
  if (headers) options = { ...options, headers: await providerHeaders(runtime, options.headers) };
  if (payload) options = { ...options, onPayload: payloadHook(runtime, options.onPayload) };
  return { context, options };
}

/** Chained handlers over the full transcript; index 0 must stay a system message (pi reports otherwise). */
async function contextWithSystem(runtime: ExtensionRuntime, context: Context): Promise<Context> {
  const head: SystemMessage = { role: "system", content: context.systemPrompt ?? "" };
  let current: Array<Message | SystemMessage> = structuredClone([head, ...context.messages]);
  const ctx = runtime.context();
  for (const { extension, handler } of runtime.handlers("context_with_system")) {
    try {
      const result = (await handler({ type: "context_with_system", messages: current }, ctx)) as
        | { messages?: Array<Message | SystemMessage> }
        | undefined;
      if (result?.messages === undefined) continue;
      if (!Array.isArray(result.messages)) throw new Error("context_with_system: messages must be an array");
      if (result.messages[0]?.role !== "system")
        throw new Error("context_with_system: the first message must stay the system message (the change was dropped)");
      current = result.messages;
    } catch (error) {
      runtime.report(extension, "context_with_system", error);
    }
  }
  const [first, ...rest] = current as [SystemMessage, ...Array<Message | SystemMessage>];
  const messages: Message[] = [];
  let dropped = 0;
  for (const message of rest) {
    if (message.role === "system") dropped++;
    else messages.push(message);
  }
  if (dropped > 0)
    runtime.notice(
      "warning",
      `pi-extensions: context_with_system: ${dropped} system message(s) after the first are not sent (providers here take one system prompt)`,
    );
  return { ...context, systemPrompt: systemText(first.content), messages };
}

function systemText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .filter((b: { type?: string }) => b?.type === "text")
      .map((b: { text: string }) => b.text)
      .join("\n");
  return "";
}

/** Handlers mutate one headers object in place; `null` values are removed afterwards. */
async function providerHeaders(
  runtime: ExtensionRuntime,
  base: Record<string, string> | undefined,
): Promise<Record<string, string>> {
  const model = runtime.state()?.model ?? undefined;
  const headers: Record<string, string | null> = { ...model?.headers, ...base };
  const ctx = runtime.context();
  for (const { extension, handler } of runtime.handlers("before_provider_headers")) {
    try {
      await handler({ type: "before_provider_headers", headers }, ctx);
    } catch (error) {
      runtime.report(extension, "before_provider_headers", error);
    }
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) if (typeof value === "string") out[key] = value;
  return out;
}

/** `onPayload` running an earlier hook first, then the handlers in load order, each seeing the last payload. */
function payloadHook(runtime: ExtensionRuntime, earlier: StreamOptions["onPayload"]): StreamOptions["onPayload"] {
  return async (payload, model) => {
    let current = earlier === undefined ? payload : ((await earlier(payload, model)) ?? payload);
    const ctx = runtime.context();
    for (const { extension, handler } of runtime.handlers("before_provider_request")) {
      try {
        const result = await handler({ type: "before_provider_request", payload: current }, ctx);
        if (result !== undefined) current = result;
      } catch (error) {
        runtime.report(extension, "before_provider_request", error);
      }
    }
    return current;
  };
}
