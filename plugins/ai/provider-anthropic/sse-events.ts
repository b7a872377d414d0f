/**
 * Decodes one raw Server-Sent Event of the Messages stream into its JSON event. Done here rather than by
 * the SDK's parsed stream so that failures keep their evidence: a line that is not JSON ends the stream
 * with an error quoting that line, and an `error` event (overloaded, rate limit) keeps the API's type
 * and message.
 */
import type { ServerSentEvent } from "@anthropic-ai/sdk/core/streaming";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";

/** How much of a malformed event is quoted in the error message. */
const QUOTE_LIMIT = 500;

/** HTTP statuses the API uses for each error type, so retry decisions match a non-streamed error. */
const STATUS_BY_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** An `error` event inside a 200 stream (e.g. `overloaded_error`), with the status the API gives that type. */
export class AnthropicStreamError extends Error {
  readonly status: number | undefined;

  constructor(
    readonly errorType: string,
    apiMessage: string,
  ) {
    super(`${errorType}: ${apiMessage}`);
    this.name = "AnthropicStreamError";
    this.status = STATUS_BY_ERROR_TYPE[errorType];
  }
}

/** A stream event whose data is not a JSON event; the message quotes the raw lines. */
export class MalformedEventError extends Error {
  constructor(sse: ServerSentEvent, reason: string) {
    const raw = sse.raw.join("\n");
    super(
      `Malformed Anthropic stream event (${reason}): ${raw.length > QUOTE_LIMIT ? `${raw.slice(0, QUOTE_LIMIT)}…` : raw}`,
    );
    this.name = "MalformedEventError";
  }
}

/** The event in `sse`, or undefined for keep-alives (`ping`, comments, empty data). Throws on `error` and on bad data. */
export function decodeEvent(sse: ServerSentEvent): RawMessageStreamEvent | undefined {
  if (sse.event === "ping" || sse.data.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(sse.data);
  } catch {
    throw new MalformedEventError(sse, "data is not JSON");
  }
  if (parsed === null || typeof parsed !== "object" || typeof (parsed as { type?: unknown }).type !== "string") {
    throw new MalformedEventError(sse, "data has no event type");
  }
  const event = parsed as { type: string; error?: { type?: unknown; message?: unknown } };
  if (sse.event === "error" || event.type === "error") {
    const errorType = typeof event.error?.type === "string" ? event.error.type : "error";
    const apiMessage = typeof event.error?.message === "string" ? event.error.message : sse.data;
    throw new AnthropicStreamError(errorType, apiMessage);
  }
  if (event.type === "ping") return undefined;
  return parsed as RawMessageStreamEvent;
}
