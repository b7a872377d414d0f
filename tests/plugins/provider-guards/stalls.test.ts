/**
 * Stalled responses end the stream with an error that says what stalled, within the configured
 * timeout, for every provider and every way a server can go silent. Before the request guard, each of
 * these waited for the SDK's own 10-minute timeout (or forever).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_IDLE_TIMEOUT_MS, requestLimits } from "../../../hosts/api.js";
import { MockLlmServer, type ScriptedResponse } from "../../support/mock-llm-server.js";
import { ask, drain, PROVIDERS } from "./fixtures.js";

/** Small timeouts so a stall shows in well under a second; the bound below is generous on purpose. */
const TIMEOUTS = { firstByteTimeoutMs: 400, idleTimeoutMs: 400 };
const GENEROUS_BOUND_MS = 8_000;

let server: MockLlmServer;
beforeEach(async () => {
  server = await new MockLlmServer().start();
});
afterEach(async () => {
  await server.close();
});

describe.each(PROVIDERS)("$name: stall timeouts", (c) => {
  const variants: Array<{ name: string; response: () => ScriptedResponse; says: RegExp }> = [
    {
      name: "no response at all (no headers)",
      response: () => ({ sse: c.answer, stall: "before-headers" }),
      says: /no response from the provider within 400 ms/,
    },
    {
      name: "headers, then silence",
      response: () => ({ sse: c.answer, stall: "after-headers" }),
      says: /response headers, then nothing for 400 ms/,
    },
    {
      name: "silence mid-stream after the first event",
      response: () => ({ sse: c.answer, stallAfter: 1 }),
      says: /went silent for 400 ms/,
    },
    {
      name: "half an SSE line, then silence",
      response: () => ({ sse: c.answer.slice(0, 1), rawTail: 'data: {"cut', stallAfterTail: true }),
      says: /went silent for 400 ms/,
    },
    {
      name: "an error status whose body never ends",
      response: () => ({ status: 503, sse: [], rawTail: '{"error": {"message": "half', stallAfterTail: true }),
      says: /went silent for 400 ms|then nothing for 400 ms/,
    },
  ];

  it.each(variants)("$name ends with an error that says what stalled", async ({ response, says }) => {
    server.enqueue(response());
    const started = Date.now();
    const { final, events } = await drain(
      c.provider.stream(c.model(server.url), ask("hi"), { apiKey: "k", ...TIMEOUTS }),
    );
    const elapsed = Date.now() - started;
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toMatch(/^Stream stalled: /);
    expect(final.errorMessage).toMatch(says);
    expect(events.at(-1)?.type).toBe("error");
    expect(elapsed).toBeLessThan(GENEROUS_BOUND_MS);
    // No retries of its own: the session's retry decides.
    expect(server.requests).toHaveLength(1);
  });
});

describe("stall timeout defaults", () => {
  it("follow pi's httpIdleTimeoutMs (300 s) for both headers and body, and the first-byte one follows the idle one", () => {
    expect(DEFAULT_IDLE_TIMEOUT_MS).toBe(300_000);
    expect(requestLimits({})).toMatchObject({ firstByteTimeoutMs: 300_000, idleTimeoutMs: 300_000 });
    expect(requestLimits({ idleTimeoutMs: 5_000 })).toMatchObject({ firstByteTimeoutMs: 5_000, idleTimeoutMs: 5_000 });
    expect(requestLimits({ idleTimeoutMs: 0, firstByteTimeoutMs: 100 })).toMatchObject({
      firstByteTimeoutMs: 100,
      idleTimeoutMs: 0,
    });
  });
});
