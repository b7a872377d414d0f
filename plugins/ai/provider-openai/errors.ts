/**
 * Turns whatever went wrong during a request into the one-line `errorMessage` of the final message.
 * The API's own words are kept verbatim (compaction recognises "exceeds the context window" and the
 * like by their text), a malformed stream line is quoted, and a dropped connection says why it dropped.
 */
import { isTransientError } from "pi-host";

/** Longest stretch of a malformed line quoted in an error message. */
const QUOTE_LIMIT = 300;

/** What the stream driver knows besides the error itself. */
export interface ErrorContext {
  /** The caller's signal fired: whatever the error says, the request was aborted. */
  aborted: boolean;
  /** The response had started streaming when the error happened. */
  streaming: boolean;
  /** An SSE data payload the SDK could not parse, when that is what failed. */
  malformedData?: string;
}

/** The message for a failed request. */
export function describeError(error: unknown, context: ErrorContext): string {
  if (context.aborted) return "Request was aborted";
  if (context.malformedData !== undefined && error instanceof SyntaxError) {
    return `Malformed data in the response stream (not JSON): ${quote(context.malformedData)}`;
  }
  // The request guard's own words already say what stalled or overflowed.
  if (error instanceof Error && error.name === "StreamGuardError") return error.message;
  if (error instanceof Error) {
    const message = withDetails(error);
    // A socket that closes under a running stream surfaces as a bare "terminated"; say what happened.
    const dropped =
      context.streaming && typeof (error as { status?: unknown }).status !== "number" && isTransientError(error);
    return dropped ? `The connection dropped mid-stream: ${message}` : message;
  }
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** The error's message, plus its low-level causes (socket closed, connection refused) or a gateway's raw detail. */
function withDetails(error: Error): string {
  const message = error.message.trim() === "" ? error.name : error.message;
  const details: string[] = [];
  // OpenRouter puts the upstream provider's own message in error.metadata.raw.
  const raw = (error as { error?: { metadata?: { raw?: unknown } } }).error?.metadata?.raw;
  if (typeof raw === "string" && raw !== "" && !message.includes(raw)) details.push(raw);
  let cause = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 4; depth++, cause = cause.cause) {
    if (cause.message !== "" && !message.includes(cause.message) && !details.includes(cause.message))
      details.push(cause.message);
  }
  const text = details.length === 0 ? message : `${message} (${details.join("; ")})`;
  return text.replace(/\s*\n\s*/g, " ");
}

function quote(text: string): string {
  const line = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
  return JSON.stringify(line);
}
