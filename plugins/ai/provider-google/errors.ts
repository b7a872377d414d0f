/**
 * Turns whatever the Gemini SDK throws into one clear line, and into an error the shared retry loop
 * understands (`status`, and a `retry-after` header taken from the response or from Google's RetryInfo).
 * The API's own message is kept word for word: the session layer recognises context overflow by it
 * ("The input token count (...) exceeds the maximum number of tokens allowed (...)").
 */
import type { WireTap } from "./wire-tap.js";

/** The longest slice of a malformed stream event quoted in an error message. */
const QUOTE_LIMIT = 500;

/** A failed request or stream, in the shape `withRetry` and `isTransientError` read. */
export class GoogleRequestError extends Error {
  override readonly name = "GoogleRequestError";
  /** HTTP status, when the API answered with one. */
  readonly status: number | undefined;
  /** `retry-after` (seconds) when the API said how long to wait. */
  readonly headers: Record<string, string>;

  constructor(message: string, options: { status?: number; retryAfter?: string; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.status = options.status;
    this.headers = options.retryAfter === undefined ? {} : { "retry-after": options.retryAfter };
  }
}

/** Google's error body: `{ "error": { "code", "message", "status", "details": [...] } }`. */
interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ "@type"?: string; retryDelay?: string }>;
}

/** Converts an error thrown by the SDK (or by fetch under it) into a GoogleRequestError. */
export function toRequestError(error: unknown, wire: WireTap): GoogleRequestError {
  if (error instanceof GoogleRequestError) return error;
  if (wire.malformedEvent !== undefined) {
    return new GoogleRequestError(`Gemini sent a malformed stream event: ${quote(wire.malformedEvent)}`, {
      cause: error,
    });
  }
  const e = error as { name?: unknown; status?: unknown; message?: unknown; cause?: unknown } | null;
  const message = typeof e?.message === "string" ? e.message : String(error);
  if (e?.name === "ApiError" && typeof e.status === "number") {
    const body = errorBodyIn(message);
    const text = body?.message ?? message;
    const label = body?.status ? `${e.status} ${body.status}` : String(e.status);
    const retryAfter = wire.errorHeaders?.get("retry-after") ?? retryDelaySeconds(body);
    return new GoogleRequestError(`Google API error ${label}: ${text}`, {
      status: e.status,
      retryAfter: retryAfter ?? undefined,
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new GoogleRequestError(`Gemini sent a malformed stream event: ${message}`, { cause: error });
  }
  const cause = (e?.cause as { message?: unknown } | undefined)?.message;
  const detail = typeof cause === "string" && cause !== message ? `${message} (${cause})` : message;
  return new GoogleRequestError(`Request to Gemini failed: ${detail}`, { cause: error });
}

/** The JSON error body inside an ApiError message (bare, or after "got status: X." for stream errors). */
function errorBodyIn(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf("{");
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: GoogleErrorBody };
    return parsed.error !== null && typeof parsed.error === "object" ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** Google sends its wait in the body (`google.rpc.RetryInfo`, e.g. "retryDelay": "17s"), not a header. */
function retryDelaySeconds(body: GoogleErrorBody | undefined): string | undefined {
  for (const detail of body?.details ?? []) {
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay ?? "");
    if (match) return match[1];
  }
  return undefined;
}

function quote(text: string): string {
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
}
