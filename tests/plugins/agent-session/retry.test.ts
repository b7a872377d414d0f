/**
 * One retry layer counts: a prompt that keeps hitting a transient error makes exactly 1 + retry.maxRetries
 * requests, even through a provider that runs its own retry loop on `options.retry` (as the real ones do),
 * because the session hands providers a policy that retries nothing. And a cancelled retry ends the run
 * with one failure report, not a success after it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AiProviderContract, type AiProvider, type AssistantMessageEvent } from "../../../contracts/ai/index.js";
import { SettingsContract, type Settings } from "../../../contracts/resources.js";
import { definePlugin } from "../../../kernel/index.js";
import { AssistantEventStream, withRetry } from "../../../kit/index.js";
import { createFauxProvider, type FauxProvider, type FauxStep } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "./harness.js";

function settingsPlugin(settings: Settings) {
  return definePlugin({
    id: "test-settings",
    version: "1.0.0",
    provides: [SettingsContract],
    setup: (ctx) => ctx.provide(SettingsContract, { get: async () => settings, set: async () => {} }),
  });
}

/**
 * The faux provider behind a provider-side retry loop: each attempt is one faux request; an errored
 * answer is thrown as a 503 so `withRetry` tries again as often as `options.retry` allows.
 */
function selfRetryingProvider(faux: FauxProvider) {
  const provider: AiProvider = {
    api: faux.api,
    stream(model, context, options) {
      const out = new AssistantEventStream();
      let lastEvents: AssistantMessageEvent[] = [];
      void withRetry(options?.retry, options?.signal, async () => {
        const attempt = faux.stream(model, context, options);
        const events: AssistantMessageEvent[] = [];
        for await (const event of attempt) events.push(event);
        lastEvents = events;
        const message = await attempt.result();
        if (message.stopReason === "error") throw Object.assign(new Error(message.errorMessage), { status: 503 });
        return events;
      }).then(
        (events) => {
          for (const e of events) out.push(e);
        },
        () => {
          for (const e of lastEvents) out.push(e);
        },
      );
      return out;
    },
  };
  return definePlugin({
    id: "provider-faux",
    version: "1.0.0",
    provides: [AiProviderContract],
    setup: (ctx) => ctx.provide(AiProviderContract, provider, { key: provider.api }),
  });
}

const down: FauxStep = { stopReason: "error", errorMessage: "503 upstream down" };

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("session retry", () => {
  it("makes exactly 1 + retry.maxRetries requests for one failing prompt, through a provider that retries on its own", async () => {
    // A fourth answer would succeed: only a second layer counting retries could reach it.
    const faux = createFauxProvider({ responses: [down, down, down, { content: "late" }] });
    const definition = selfRetryingProvider(faux);
    const h = (harness = await bootSession({
      sources: { "provider-faux": { kind: "inline", label: "provider-faux", definition } },
      extra: [settingsPlugin({ retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 } })],
    }));
    await h.session.call("prompt", "hello");
    expect(faux.requests).toHaveLength(3);
    expect(faux.requests.map((r) => r.options?.retry?.maxRetries)).toEqual([0, 0, 0]);
    expect(h.session.call("lastAssistantText")).not.toContain("late");
    expect(h.events.filter((e) => e.type.startsWith("auto_retry"))).toMatchObject([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 2 },
      { type: "auto_retry_start", attempt: 2, maxAttempts: 2 },
      { type: "auto_retry_end", success: false, attempt: 2, finalError: "503 upstream down" },
    ]);
  });

  it("a retry cancelled while it waits ends the run with one failure report and no success after it", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [down, { content: "never" }] },
      extra: [settingsPlugin({ retry: { maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 } })],
    }));
    const running = h.session.call("prompt", "hello");
    while (!h.events.some((e) => e.type === "auto_retry_start")) await new Promise((r) => setTimeout(r, 5));
    await h.session.call("abortRetry");
    await running;
    expect(h.faux.requests).toHaveLength(1);
    expect(h.events.filter((e) => e.type.startsWith("auto_retry"))).toEqual([
      expect.objectContaining({ type: "auto_retry_start", attempt: 1 }),
      { type: "auto_retry_end", success: false, attempt: 1, finalError: "retry cancelled" },
    ]);
  });
});
