/**
 * The "mistral-conversations" slot: one POST to `<baseUrl>/v1/chat/completions` per answer, streamed
 * back as server-sent events. Check the key and base URL, build the body, let `onPayload` see it, send
 * through the request guard (stall timeouts, line cap) with transparent retries while nothing has
 * reached the consumer, and end with exactly one `done` or `error` event. `stream()` never throws.
 */
import {
  AssistantEventStream,
  newAssistantMessage,
  nodeFetch,
  noteRetryAfter,
  RequestGuard,
  requestLimits,
  withRetry,
} from "pi-host";
import type { AiProvider, AssistantStream, Context, Model, StreamOptions } from "pi-host";
import { buildMistralBody } from "./request.js";
import { readChunks } from "./sse.js";
import { MistralTurn } from "./turn.js";

/** The api key of Mistral's models in the catalog (pi 1.6's name for it). */
export const MISTRAL_API = "mistral-conversations";

/** An HTTP error answer, with what retry and the error text need. */
class MistralHttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    body: string,
  ) {
    super(`Mistral API error (${status}): ${body.trim() === "" ? "no details" : body.trim().slice(0, 4000)}`);
    this.name = "MistralHttpError";
  }
}

function endpoint(model: Model): string {
  if (!/^https?:\/\/[^/\s]+/i.test(model.baseUrl ?? "")) {
    throw new Error(
      `Model "${model.provider}/${model.id}" has an invalid baseUrl ${JSON.stringify(model.baseUrl)}: expected an http:// or https:// URL such as "https://api.mistral.ai"`,
    );
  }
  return `${model.baseUrl.replace(/\/+$/, "")}/v1/chat/completions`;
}

function requestHeaders(model: Model, apiKey: string, options: StreamOptions): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "text/event-stream",
    authorization: `Bearer ${apiKey}`,
    "content-type": "application/json",
  };
  const set = (extra: Record<string, string> | undefined) => {
    for (const [name, value] of Object.entries(extra ?? {})) {
      for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
      headers[name] = value;
    }
  };
  set(model.headers);
  set(options.headers);
  // Session affinity: Mistral routes a session's requests to the same prompt cache.
  const affinity = Object.keys(headers).some((name) => name.toLowerCase() === "x-affinity");
  if (options.sessionId !== undefined && options.cacheRetention !== "none" && !affinity)
    headers["x-affinity"] = options.sessionId;
  return headers;
}

function streamMistral(model: Model, context: Context, options: StreamOptions = {}): AssistantStream {
  const events = new AssistantEventStream();
  const message = newAssistantMessage(model);
  const turn = new MistralTurn(message, events, model);
  const signal = options.signal;
  let started = false;

  const run = async (): Promise<void> => {
    const apiKey = options.apiKey;
    if (apiKey === undefined || apiKey.trim() === "") {
      throw new Error(
        `No API key for provider "${model.provider}": set MISTRAL_API_KEY, add it to auth.json, or pass --api-key`,
      );
    }
    const url = endpoint(model);
    const built = buildMistralBody(model, context, options);
    const replaced = options.onPayload === undefined ? undefined : await options.onPayload(built, model);
    const body = JSON.stringify(replaced === undefined ? built : replaced);
    const headers = requestHeaders(model, apiKey, options);
    await withRetry(
      options.retry,
      signal,
      async () => {
        const guard = new RequestGuard(signal, requestLimits(options), nodeFetch);
        try {
          const response = await guard.fetch(url, { method: "POST", headers, body, signal: guard.signal });
          if (!response.ok) {
            const headerRecord: Record<string, string> = {};
            response.headers.forEach((value, name) => {
              headerRecord[name] = value;
            });
            throw new MistralHttpError(response.status, headerRecord, await response.text());
          }
          if (response.body === null) throw new Error("Mistral response has no body");
          if (!started) {
            started = true;
            events.push({ type: "start", partial: message });
          }
          for await (const chunk of readChunks(response.body as unknown as AsyncIterable<Uint8Array>)) {
            if (signal?.aborted) break;
            turn.take(chunk);
          }
        } catch (error) {
          guard.throwIfFailed();
          throw error;
        } finally {
          guard.dispose();
        }
        guard.throwIfFailed();
      },
      () => !turn.contentSent,
    );
    if (signal?.aborted) throw new Error("Request was aborted");
    turn.finish();
    if (message.stopReason === "error")
      throw new Error(message.errorMessage ?? "Mistral ended the answer with an error");
    if (!turn.finished) throw new Error("Mistral stream ended without a finish reason");
    events.push({ type: "done", reason: message.stopReason as "stop" | "length" | "toolUse", message });
  };

  run().catch((error: unknown) => {
    const aborted = signal?.aborted === true;
    const text = aborted ? "Request was aborted" : error instanceof Error ? error.message : String(error);
    message.stopReason = aborted ? "aborted" : "error";
    message.errorMessage = aborted ? text : noteRetryAfter(message, text, error, options.retry);
    events.push({ type: "error", reason: message.stopReason, error: message });
  });
  return events;
}

/** The provider registered under MISTRAL_API. */
export const mistralProvider: AiProvider = { api: MISTRAL_API, stream: streamMistral };
