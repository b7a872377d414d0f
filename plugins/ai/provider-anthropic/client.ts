/**
 * The only place that loads `@anthropic-ai/sdk`, and only when a request is made: the SDK costs ~110 ms
 * to import, and a run that uses another provider must never pay it. The SDK sends the request (auth,
 * headers, HTTP errors as typed errors); we read the raw event stream ourselves (see sse-events.ts).
 */
import type { ServerSentEvent } from "@anthropic-ai/sdk/core/streaming";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages";
import { isOAuthToken, oauthHeaders } from "./oauth.js";
import { nodeFetch, RequestGuard, requestLimits, type Model, type StreamOptions } from "pi-host";

/** An open streamed response: its raw events, and `close()` to release the connection when done with it. */
export interface EventStreamConnection {
  events: AsyncIterable<ServerSentEvent>;
  /** Aborts the HTTP request if still open and detaches from the caller's signal. Idempotent. */
  close(): void;
  /** The request's guard: after the events end or throw, `throwIfFailed()` reports a stall or overlong line. */
  guard: RequestGuard;
}

/**
 * Sends one streamed request and resolves once the response headers arrive. Rejects with the SDK's
 * APIError on an HTTP error status. The SDK never retries (`maxRetries: 0`): the provider retries only
 * while nothing has reached the consumer. Each request gets its own abort controller, linked to the
 * caller's signal only while the request lives, so a signal shared by a whole session collects no
 * listeners and a stream abandoned on an error does not keep its socket open.
 */
export async function openEventStream(
  model: Model,
  body: MessageCreateParamsStreaming,
  apiKey: string,
  options: StreamOptions,
): Promise<EventStreamConnection> {
  // The guard links to the caller's signal (one shared listener, removed on close) and cuts stalls.
  const guard = new RequestGuard(options.signal, requestLimits(options), nodeFetch);
  try {
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    const { Stream } = await import("@anthropic-ai/sdk/core/streaming");
    const client = new Anthropic({
      apiKey,
      baseURL: model.baseUrl === "" ? undefined : model.baseUrl,
      maxRetries: 0,
      logLevel: "off",
      defaultHeaders: requestHeaders(apiKey, model, options),
      fetch: guard.fetch,
    });
    // `client.post` rather than `client.messages.create`: the latter writes deprecation notices for some
    // model ids straight to console.warn, which would tear through the TUI. Auth, headers and HTTP errors
    // are the same SDK code either way.
    const response = await client.post("/v1/messages", { body, stream: true, signal: guard.signal }).asResponse();
    return { events: Stream.rawEvents(response), close: () => guard.close(), guard };
  } catch (error) {
    guard.close();
    guard.throwIfFailed();
    throw error;
  }
}

/**
 * The key goes in `x-api-key`, the header every Anthropic-compatible endpoint accepts (this SDK version
 * would send `Authorization: Bearer`, which some proxies refuse). The model's and the caller's headers
 * come last, so a custom provider can still choose its own auth header. A Claude Pro/Max sign-in's
 * token goes as a bearer with Claude Code's headers instead (oauth.ts).
 */
export function requestHeaders(apiKey: string, model: Model, options: StreamOptions): Record<string, string | null> {
  const auth = isOAuthToken(apiKey) ? oauthHeaders(apiKey) : { "x-api-key": apiKey, authorization: null };
  return { ...auth, ...model.headers, ...options.headers };
}
