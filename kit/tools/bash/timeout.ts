/**
 * The bash `timeout` parameter, checked as pi 1.6.0 does. A timer longer than 2^31-1 ms overflows in
 * Node and fires after 1 ms, so `timeout: 1e308` would kill the command at once; such values, and
 * non-finite or non-positive ones, are refused with one line instead.
 */

/** The longest delay a Node timer can wait (2^31-1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** The timeout in milliseconds, undefined for none; throws pi's one-line message for a value it cannot honour. */
export function resolveTimeoutMs(timeoutSeconds: unknown): number | undefined {
  if (timeoutSeconds === undefined) return undefined;
  if (typeof timeoutSeconds !== "number" || !Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new Error("Invalid timeout: must be a finite number of seconds");
  }
  const timeoutMs = timeoutSeconds * 1000;
  if (timeoutMs > MAX_TIMEOUT_MS) throw new Error(`Invalid timeout: maximum is ${MAX_TIMEOUT_MS / 1000} seconds`);
  return timeoutMs;
}
