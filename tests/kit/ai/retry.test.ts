import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY,
  errorHeader,
  isTransientError,
  isTransientStatus,
  parseRetryAfter,
  retryDelayMs,
  sleep,
  withRetry,
  type RetryPolicy,
} from "../../../hosts/api.js";

const fast: RetryPolicy = { enabled: true, maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 };

/** An SDK-style HTTP error. */
function httpError(status: number, headers: Record<string, string> = {}): Error & { status: number; headers: Headers } {
  return Object.assign(new Error(`${status} status code`), { status, headers: new Headers(headers) });
}

describe("which failures are transient", () => {
  it("retries 408, 409, 429 and 5xx (529 included), never 400, 401, 403, 404", () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529])
      expect(isTransientStatus(status), String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 422]) expect(isTransientStatus(status), String(status)).toBe(false);
    expect(isTransientStatus(undefined)).toBe(false);
  });

  it("reads status, network codes, messages and causes of thrown errors; never an abort", () => {
    expect(isTransientError(httpError(503))).toBe(true);
    expect(isTransientError(httpError(401))).toBe(false);
    expect(isTransientError(Object.assign(new Error("x"), { code: "ECONNRESET" }))).toBe(true);
    expect(isTransientError(new Error("socket hang up"))).toBe(true);
    expect(isTransientError(new Error("Overloaded"))).toBe(true);
    expect(
      isTransientError(
        new TypeError("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) }),
      ),
    ).toBe(true);
    expect(isTransientError(Object.assign(new Error("Request was aborted"), { name: "AbortError" }))).toBe(false);
    expect(isTransientError(Object.assign(new Error("terminated"), { name: "APIUserAbortError" }))).toBe(false);
    expect(isTransientError(new Error("invalid x-api-key"))).toBe(false);
    expect(isTransientError("string")).toBe(false);
    expect(isTransientError(null)).toBe(false);
  });
});

describe("how long to wait", () => {
  it("parses Retry-After as seconds, milliseconds or an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter("250ms")).toBe(250);
    expect(parseRetryAfter(" 3 ")).toBe(3000);
    const date = parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())!;
    expect(date).toBeGreaterThan(8_000);
    expect(date).toBeLessThanOrEqual(10_000);
    expect(parseRetryAfter(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
    for (const bad of [undefined, null, "", "soon"]) expect(parseRetryAfter(bad)).toBeUndefined();
  });

  it("prefers the server's Retry-After (capped), else backs off exponentially with jitter", () => {
    const policy: RetryPolicy = { enabled: true, maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 8000 };
    expect(retryDelayMs(0, policy, "3")).toBe(3000);
    expect(retryDelayMs(0, policy, "120")).toBe(8000);
    expect(retryDelayMs(0, policy, undefined, () => 1)).toBe(1000);
    expect(retryDelayMs(0, policy, undefined, () => 0)).toBe(500);
    expect(retryDelayMs(2, policy, undefined, () => 1)).toBe(4000);
    expect(retryDelayMs(10, policy, undefined, () => 1)).toBe(8000);
    expect(retryDelayMs(10, policy, null, () => 0)).toBe(4000);
    expect(DEFAULT_RETRY).toEqual({ enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60_000 });
  });

  it("reads headers from a Headers object or a plain record, case-insensitively", () => {
    expect(errorHeader(httpError(429, { "Retry-After": "7" }), "retry-after")).toBe("7");
    expect(errorHeader({ headers: { "Retry-After-Ms": "15" } }, "retry-after-ms")).toBe("15");
    expect(errorHeader({ headers: { "retry-after": 5 } }, "retry-after")).toBeUndefined();
    expect(errorHeader(new Error("no headers"), "retry-after")).toBeUndefined();
    expect(errorHeader(null, "retry-after")).toBeUndefined();
  });

  it("sleep resolves, or rejects at once with an AbortError", async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("withRetry", () => {
  it("retries transient failures until one attempt succeeds", async () => {
    const attempts: number[] = [];
    const value = await withRetry(fast, undefined, async (n) => {
      attempts.push(n);
      if (n < 2) throw httpError(n === 0 ? 429 : 503);
      return "ok";
    });
    expect(value).toBe("ok");
    expect(attempts).toEqual([0, 1, 2]);
  });

  it("gives up after maxRetries and rethrows the last error", async () => {
    let calls = 0;
    await expect(
      withRetry(fast, undefined, async () => {
        calls++;
        throw httpError(500);
      }),
    ).rejects.toMatchObject({ status: 500 });
    expect(calls).toBe(4);
  });

  it("never retries 400/401/403, nor when disabled, nor once content reached the caller", async () => {
    for (const status of [400, 401, 403]) {
      let calls = 0;
      await expect(
        withRetry(fast, undefined, async () => (calls++, Promise.reject(httpError(status)))),
      ).rejects.toMatchObject({ status });
      expect(calls, String(status)).toBe(1);
    }
    let disabledCalls = 0;
    await expect(
      withRetry({ ...fast, enabled: false }, undefined, async () => (disabledCalls++, Promise.reject(httpError(503)))),
    ).rejects.toBeDefined();
    expect(disabledCalls).toBe(1);
    let streamed = false;
    let streamCalls = 0;
    await expect(
      withRetry(
        fast,
        undefined,
        async () => {
          streamCalls++;
          streamed = true;
          throw new Error("socket hang up");
        },
        () => !streamed,
      ),
    ).rejects.toThrow("socket hang up");
    expect(streamCalls).toBe(1);
  });

  it("honours retry-after-ms and Retry-After from the server", async () => {
    const waits: number[] = [];
    let calls = 0;
    const started = performance.now();
    await withRetry({ ...fast, maxDelayMs: 60_000 }, undefined, async () => {
      calls++;
      waits.push(performance.now() - started);
      if (calls === 1) throw httpError(429, { "retry-after-ms": "30" });
      if (calls === 2) throw httpError(429, { "retry-after": "0" });
      return true;
    });
    expect(calls).toBe(3);
    expect(waits[1]! - waits[0]!).toBeGreaterThanOrEqual(29); // the 30 ms the server asked for; timers never fire early
  });

  it("stops waiting when the signal aborts", async () => {
    const controller = new AbortController();
    let calls = 0;
    const run = withRetry(
      { enabled: true, maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      controller.signal,
      async () => {
        calls++;
        // Abort on the next macrotask: by then the failure was caught and the 60 s wait has begun.
        if (calls === 1) setImmediate(() => controller.abort());
        throw httpError(503);
      },
    );
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    expect(calls).toBe(1);
    // Already aborted: the first failure is final.
    await expect(
      withRetry(fast, AbortSignal.abort(), async () => Promise.reject(httpError(503))),
    ).rejects.toMatchObject({ status: 503 });
  });
});
