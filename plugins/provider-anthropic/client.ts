/**
 * The only place that loads `@anthropic-ai/sdk`, and only when a request is made: the SDK costs ~110 ms
 * to import, and a run that uses another provider must never pay it. The SDK sends the request (auth,
 * headers, HTTP errors as typed errors); we read the raw event stream ourselves (see sse-events.ts).
 */
import type { ServerSentEvent } from "@anthropic-ai/sdk/core/streaming";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages";
import type { Model, StreamOptions } from "../../contracts/ai/index.js";

/**
 * Sends one streamed request and resolves with its raw events once the response headers arrive. Rejects
 * with the SDK's APIError on an HTTP error status. The SDK never retries (`maxRetries: 0`): the provider
 * retries only while nothing has reached the consumer.
 */
export async function openEventStream(
  model: Model,
  body: MessageCreateParamsStreaming,
  apiKey: string,
  options: StreamOptions,
): Promise<AsyncIterable<ServerSentEvent>> {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const { Stream } = await import("@anthropic-ai/sdk/core/streaming");
  const client = new Anthropic({
    apiKey,
    baseURL: model.baseUrl === "" ? undefined : model.baseUrl,
    maxRetries: 0,
    logLevel: "off",
    defaultHeaders: requestHeaders(apiKey, model, options),
  });
  const response = await client.messages.create(body, { signal: options.signal }).asResponse();
  return Stream.rawEvents(response);
}

/**
 * The key goes in `x-api-key`, the header every Anthropic-compatible endpoint accepts (this SDK version
 * would send `Authorization: Bearer`, which some proxies refuse). The model's and the caller's headers
 * come last, so a custom provider can still choose its own auth header.
 */
export function requestHeaders(apiKey: string, model: Model, options: StreamOptions): Record<string, string | null> {
  return { "x-api-key": apiKey, authorization: null, ...model.headers, ...options.headers };
}
