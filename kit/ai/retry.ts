/**
 * Which failures are worth another try, and how long to wait. Transient: 408, 409 (lock timeout), 429,
 * 5xx, Anthropic's 529 "overloaded", and connections that drop before the answer begins. Never: 400,
 * 401, 403, 404 — another try would fail the same way. Pure functions; providers run the loop.
 */
import { onAbort } from "./abort.js";
import type { RetryPolicy } from "../../contracts/ai/types.js";

/** pi's defaults for the one retry layer that counts (the session's): three retries, 2 s doubling, capped at 60 s. */
export const DEFAULT_RETRY: RetryPolicy = { enabled: true, maxRetries: 3, baseDelayMs: 2_000, maxDelayMs: 60_000 };

/**
 * A provider's own retries when the caller names none: none (pi's `retry.provider.maxRetries` is 0), so
 * retries never multiply with the session's. `maxDelayMs` is the longest server-requested wait honoured.
 */
export const DEFAULT_PROVIDER_RETRY: RetryPolicy = {
  enabled: true,
  maxRetries: 0,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
};

const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Whether an HTTP status is worth retrying. */
export function isTransientStatus(status: number | undefined): boolean {
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Whether an error thrown by an SDK or fetch is worth retrying. */
export function isTransientError(error: unknown): boolean {
  if (error === null || typeof error !== "object") return false;
  const e = error as { status?: unknown; code?: unknown; cause?: unknown; name?: unknown; message?: unknown };
  if (typeof (e as { transient?: unknown }).transient === "boolean") return (e as { transient: boolean }).transient;
  if (e.name === "AbortError" || e.name === "APIUserAbortError") return false;
  if (typeof e.status === "number") return isTransientStatus(e.status);
  if (typeof e.code === "string" && TRANSIENT_CODES.has(e.code)) return true;
  if (
    typeof e.message === "string" &&
    /overloaded|socket hang up|other side closed|terminated|fetch failed|connection error/i.test(e.message)
  )
    return true;
  return e.cause !== undefined && e.cause !== error ? isTransientError(e.cause) : false;
}

/**
 * The wait before retry number `attempt` (0-based): the server's Retry-After when it gives one (seconds
 * or an HTTP date), else exponential backoff with full jitter in [50%, 100%] of the step, capped.
 */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  retryAfter?: string | null,
  random: () => number = Math.random,
): number {
  const fromServer = parseRetryAfter(retryAfter);
  if (fromServer !== undefined) return Math.min(fromServer, policy.maxDelayMs);
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step * (0.5 + random() / 2));
}

/** Parses a Retry-After header (also `retry-after-ms`-style plain milliseconds when suffixed "ms"). */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?ms$/.test(text)) return Math.round(Number.parseFloat(text));
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number.parseFloat(text) * 1_000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Waits `ms`, or rejects at once with an AbortError when `signal` fires. Links to the signal through
 * the shared abort link, so many sleeps on one signal (parallel retries) add one listener, not many.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      unlink();
      resolve();
    }, ms);
    const unlink = onAbort(signal, () => {
      clearTimeout(timer);
      reject(abortError());
    });
  });
}

function abortError(): Error {
  const error = new Error("Request was aborted");
  error.name = "AbortError";
  return error;
}

/** Reads a header from an SDK error, whose `headers` may be a Headers object or a plain record. */
export function errorHeader(error: unknown, name: string): string | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  if (headers === null || typeof headers !== "object") return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, unknown>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return typeof value === "string" ? value : undefined;
}

/** The wait a failed response asked for (`retry-after-ms`, else `retry-after`), in milliseconds. */
export function serverRetryAfterMs(error: unknown): number | undefined {
  const ms = errorHeader(error, "retry-after-ms");
  return parseRetryAfter(ms !== undefined ? `${ms}ms` : errorHeader(error, "retry-after"));
}

/** Whether a server-requested wait is longer than the policy allows (a `maxDelayMs` of 0 means no limit). */
export function exceedsRetryLimit(waitMs: number | undefined, policy: RetryPolicy): boolean {
  return waitMs !== undefined && policy.maxDelayMs > 0 && waitMs > policy.maxDelayMs;
}

/** The note appended to an error whose server asked for a wait longer than the retry limit. */
export function retryLimitNote(waitMs: number, policy: RetryPolicy): string {
  return `the provider asks to retry after ${formatWait(waitMs)}, longer than the ${formatWait(policy.maxDelayMs)} retry limit (retry.maxDelayMs); not retrying`;
}

function formatWait(ms: number): string {
  const seconds = Math.round(ms / 1_000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3_600)} h`;
}

const RETRY_AFTER = Symbol.for("pi-host.ai.retryAfterMs");

/**
 * Records on a failed message how long the server asked to wait, for the session's retry. Not
 * enumerable and keyed by a symbol: it never reaches the session file or another provider's request.
 */
export function setRetryAfterMs(message: object, waitMs: number): void {
  Object.defineProperty(message, RETRY_AFTER, { value: waitMs, enumerable: false, configurable: true, writable: true });
}

/** The server-requested wait recorded by `setRetryAfterMs`, if any. */
export function retryAfterMsOf(message: object): number | undefined {
  const value = (message as Record<symbol, unknown>)[RETRY_AFTER];
  return typeof value === "number" ? value : undefined;
}

/**
 * A failed message's error text with what the server said about retrying: records its requested wait
 * on `message` (for the session's retry) and, when that wait exceeds the retry limit, appends one note
 * saying nobody will retry. Providers call it when they fail; returns the text to use.
 */
export function noteRetryAfter(
  message: object,
  errorText: string,
  error: unknown,
  policy: RetryPolicy | undefined,
): string {
  const waitMs = serverRetryAfterMs(error);
  if (waitMs === undefined) return errorText;
  setRetryAfterMs(message, waitMs);
  const p = policy ?? DEFAULT_PROVIDER_RETRY;
  return exceedsRetryLimit(waitMs, p) ? `${errorText} (${retryLimitNote(waitMs, p)})` : errorText;
}

/**
 * Runs `attempt` and retries it on transient failures while `canRetry()` says nothing has reached the
 * caller yet (a stream that already emitted content cannot be replayed). Honours Retry-After, and gives
 * up at once when the server asks for a longer wait than `maxDelayMs`. With no policy, never retries
 * (the session's retry is the one that counts).
 */
export async function withRetry<T>(
  policy: RetryPolicy | undefined,
  signal: AbortSignal | undefined,
  attempt: (attemptNumber: number) => Promise<T>,
  canRetry: () => boolean = () => true,
): Promise<T> {
  const p = policy ?? DEFAULT_PROVIDER_RETRY;
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!p.enabled || n >= p.maxRetries || signal?.aborted || !canRetry() || !isTransientError(error)) throw error;
      const waitMs = serverRetryAfterMs(error);
      if (exceedsRetryLimit(waitMs, p)) throw error;
      await sleep(waitMs ?? retryDelayMs(n, p), signal);
    }
  }
}
