/**
 * The provider-side retry helpers: with no policy a provider never retries (the session's retry owns
 * the count), a Retry-After longer than the limit fails at once, and the failed message says so and
 * carries the wait (out of JSON) for the session.
 */
import { describe, expect, it } from "vitest";
import { noteRetryAfter, retryAfterMsOf, withRetry, type RetryPolicy } from "../../../hosts/api.js";

/** An error shaped like the SDKs' API errors. */
function apiError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`${status} failed`), { status, headers });
}

const POLICY: RetryPolicy = { enabled: true, maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1_000 };

describe("withRetry", () => {
  it("tries once when no policy is given", async () => {
    let calls = 0;
    await expect(withRetry(undefined, undefined, async () => (calls++, Promise.reject(apiError(503))))).rejects.toThrow(
      "503",
    );
    expect(calls).toBe(1);
  });

  it("retries up to maxRetries when a policy asks for it", async () => {
    let calls = 0;
    await expect(withRetry(POLICY, undefined, async () => (calls++, Promise.reject(apiError(503))))).rejects.toThrow(
      "503",
    );
    expect(calls).toBe(4);
  });

  it("fails at once when the server asks for a longer wait than maxDelayMs", async () => {
    let calls = 0;
    const started = Date.now();
    await expect(
      withRetry(POLICY, undefined, async () => (calls++, Promise.reject(apiError(429, { "retry-after": "100000" })))),
    ).rejects.toThrow("429");
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("noteRetryAfter", () => {
  it("records the wait off-JSON and appends one note when it exceeds the limit", () => {
    const message = { errorMessage: "429 slow down" };
    const text = noteRetryAfter(message, message.errorMessage, apiError(429, { "retry-after": "100000" }), {
      ...POLICY,
      maxDelayMs: 60_000,
    });
    expect(text).toBe(
      "429 slow down (the provider asks to retry after 28 h, longer than the 60 s retry limit (retry.maxDelayMs); not retrying)",
    );
    expect(retryAfterMsOf(message)).toBe(100_000_000);
    expect(JSON.stringify(message)).toBe('{"errorMessage":"429 slow down"}');
  });

  it("leaves the text alone for a wait within the limit, or none", () => {
    expect(noteRetryAfter({}, "429", apiError(429, { "retry-after-ms": "500" }), POLICY)).toBe("429");
    const plain = {};
    expect(noteRetryAfter(plain, "500", apiError(500), POLICY)).toBe("500");
    expect(retryAfterMsOf(plain)).toBeUndefined();
  });
});
