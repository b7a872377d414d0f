/**
 * A signal shared by many requests (a session's, across retries and parallel tool-free calls) collects
 * no abort listeners: each request links to it through one shared listener that is removed when the
 * last request ends, so Node never warns "MaxListenersExceededWarning".
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { onAbort, sleep } from "../../../hosts/api.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { ask, drain, PROVIDERS } from "./fixtures.js";

let server: MockLlmServer;
const warnings: Error[] = [];
const onWarning = (warning: Error): void => void warnings.push(warning);
beforeEach(async () => {
  server = await new MockLlmServer().start();
  warnings.length = 0;
  process.on("warning", onWarning);
});
afterEach(async () => {
  process.off("warning", onWarning);
  await server.close();
});

/** Lets a pending process 'warning' event arrive (Node emits it on the next tick). */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

describe.each(PROVIDERS)("$name: abort listeners", (c) => {
  it("50 parallel calls and a retried call on one signal raise no MaxListenersExceededWarning", async () => {
    const shared = new AbortController();
    for (let i = 0; i < 50; i++) server.enqueue({ sse: c.answer });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        drain(c.provider.stream(c.model(server.url), ask("hi"), { apiKey: "k", signal: shared.signal })),
      ),
    );
    expect(results.every((r) => r.final.stopReason === "stop")).toBe(true);

    for (let i = 0; i < 12; i++) server.enqueue({ status: 503, rawBody: "{}" });
    server.enqueue({ sse: c.answer });
    const retried = await drain(
      c.provider.stream(c.model(server.url), ask("hi"), {
        apiKey: "k",
        signal: shared.signal,
        retry: { enabled: true, maxRetries: 12, baseDelayMs: 1, maxDelayMs: 2 },
      }),
    );
    expect(retried.final.stopReason).toBe("stop");

    await settle();
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  }, 60_000);
});

describe("sleep", () => {
  it("50 parallel retry waits on one signal raise no warning, and an abort ends them all", async () => {
    const shared = new AbortController();
    const waits = Array.from({ length: 50 }, () =>
      sleep(60_000, shared.signal).then(
        () => "slept",
        (error: Error) => error.name,
      ),
    );
    await settle();
    shared.abort();
    expect(new Set(await Promise.all(waits))).toEqual(new Set(["AbortError"]));
    await settle();
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});

describe("onAbort", () => {
  it("installs one listener per signal and removes it when the last link ends", () => {
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => (added++, add(...args))) as typeof add;
    controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => (
      removed++, remove(...args)
    )) as typeof remove;
    const fired: number[] = [];
    const unlinks = Array.from({ length: 20 }, (_, i) => onAbort(controller.signal, () => fired.push(i)));
    expect(added).toBe(1);
    for (const unlink of unlinks.slice(0, 19)) unlink();
    expect(removed).toBe(0);
    unlinks[19]!();
    expect(removed).toBe(1);
    const again = onAbort(controller.signal, () => fired.push(99));
    controller.abort();
    expect(fired).toEqual([99]);
    again();
  });
});
