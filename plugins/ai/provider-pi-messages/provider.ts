/**
 * The "pi-messages" slot: POST `{ model, context, options }` to `<baseUrl>/messages` with the bearer,
 * read the SSE answer (one `data:` JSON event per block of lines) through the request guard, and end
 * with exactly one `done` or `error` event; a stream that stops before its terminal event is an error.
 * `stream()` never throws.
 */
import { AssistantEventStream, newAssistantMessage, nodeFetch, RequestGuard, requestLimits } from "pi-host";
import type { AiProvider, AssistantStream, Context, Model, StreamOptions } from "pi-host";
import { WireEventReader, type WireEvent } from "./events.js";

/** The api name of the protocol (pi 1.6's). */
export const PI_MESSAGES_API = "pi-messages";

/** The error text of an HTTP error answer: the gateway's `error.message` (and code), else the body. */
function httpError(status: number, statusText: string, body: string): Error {
  let message = body.trim().slice(0, 4000);
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown; code?: unknown } };
    if (typeof parsed.error?.message === "string") {
      message = parsed.error.message + (typeof parsed.error.code === "string" ? ` (${parsed.error.code})` : "");
    }
  } catch {}
  const error = new Error(`${status} ${statusText}: ${message}`.trim()) as Error & { status: number };
  error.status = status;
  return error;
}

/** The events of an SSE body, in order; `[DONE]` and blocks without data are skipped. */
async function* readEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<WireEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  const parse = (raw: string): WireEvent | undefined => {
    const line = raw.split("\n").find((l) => l.startsWith("data:"));
    const data = line?.slice(5).trim();
    if (data === undefined || data === "" || data === "[DONE]") return undefined;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      throw new Error(`Malformed data in the pi-messages stream (not JSON): ${JSON.stringify(data.slice(0, 300))}`);
    }
    if (event === null || typeof event !== "object" || typeof (event as WireEvent).type !== "string") {
      throw new Error("Invalid pi-messages event: it has no type");
    }
    return event as WireEvent;
  };
  for await (const bytes of body) {
    buffer = (buffer + decoder.decode(bytes, { stream: true })).replace(/\r\n/g, "\n");
    for (let split = buffer.indexOf("\n\n"); split !== -1; split = buffer.indexOf("\n\n")) {
      const event = parse(buffer.slice(0, split));
      buffer = buffer.slice(split + 2);
      if (event !== undefined) yield event;
    }
  }
  const last = parse(buffer + decoder.decode());
  if (last !== undefined) yield last;
}

function streamPiMessages(model: Model, context: Context, options: StreamOptions = {}): AssistantStream {
  const events = new AssistantEventStream();
  const message = newAssistantMessage(model);
  const signal = options.signal;

  const run = async (): Promise<void> => {
    const apiKey = options.apiKey;
    if (apiKey === undefined || apiKey.trim() === "") {
      throw new Error(
        `No API key for provider "${model.provider}": run "pi auth login ${model.provider}", add a key to auth.json, or pass --api-key`,
      );
    }
    if (!/^https?:\/\/[^/\s]+/i.test(model.baseUrl ?? "")) {
      throw new Error(`Model "${model.provider}/${model.id}" has an invalid baseUrl ${JSON.stringify(model.baseUrl)}`);
    }
    const built = {
      model: model.id,
      context,
      options: {
        temperature: options.temperature,
        maxTokens: options.maxTokens,
        reasoning: options.reasoning,
        cacheRetention: options.cacheRetention,
        sessionId: options.sessionId,
      },
    };
    const replaced = options.onPayload === undefined ? undefined : await options.onPayload(built, model);
    const headers: Record<string, string> = {
      ...model.headers,
      authorization: `Bearer ${apiKey}`,
      accept: "text/event-stream",
      "content-type": "application/json",
      ...options.headers,
    };
    const guard = new RequestGuard(signal, requestLimits(options), nodeFetch);
    try {
      const response = await guard.fetch(`${model.baseUrl.replace(/\/+$/, "")}/messages`, {
        method: "POST",
        headers,
        body: JSON.stringify(replaced === undefined ? built : replaced),
        signal: guard.signal,
      });
      if (!response.ok) throw httpError(response.status, response.statusText, await response.text());
      if (response.body === null) throw new Error(`${model.provider} response has no body`);
      events.push({ type: "start", partial: message });
      const reader = new WireEventReader(message);
      for await (const wire of readEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
        const event = reader.read(wire);
        if (event === undefined) continue;
        events.push(event);
        if (event.type === "done" || event.type === "error") return;
      }
      guard.throwIfFailed();
      if (signal?.aborted) throw new Error("Request was aborted");
      throw new Error(`${model.provider} stream ended without a terminal event`);
    } catch (error) {
      guard.throwIfFailed();
      throw error;
    } finally {
      // The answer ends at its terminal event; close the connection whatever follows it.
      guard.close();
    }
  };

  run().catch((error: unknown) => {
    const aborted = signal?.aborted === true;
    message.stopReason = aborted ? "aborted" : "error";
    message.errorMessage = aborted ? "Request was aborted" : error instanceof Error ? error.message : String(error);
    events.push({ type: "error", reason: message.stopReason, error: message });
  });
  return events;
}

/** The provider registered under PI_MESSAGES_API. */
export const piMessagesProvider: AiProvider = { api: PI_MESSAGES_API, stream: streamPiMessages };
