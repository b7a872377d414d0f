/**
 * Acceptance 1: provider-google streams through the real @google/genai SDK against MockLlmServer and
 * turns every outcome — text, thinking, tool calls, usage, drops, 429s, auth failures, aborts, bad lines
 * — into the exact event sequence and final message, never a throw.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AiProvider, AssistantMessageEvent, Context, Model, StreamOptions } from "../../../contracts/ai/index.js";
import type { Handle, Kernel } from "../../../kernel/index.js";
import * as fixtures from "../../fixtures/sse/google-generative-ai/responses.js";
import { MockLlmServer, type SseEvent } from "../../support/mock-llm-server.js";
import { ask, baseOptions, bootGoogleProvider, drain, geminiModel } from "./harness.js";

let server: MockLlmServer;
let kernel: Kernel;
let provider: Handle<AiProvider>;
let model: Model;

beforeEach(async () => {
  server = await new MockLlmServer().start();
  ({ kernel, provider } = await bootGoogleProvider());
  model = geminiModel(server.url);
});

afterEach(async () => {
  await kernel?.shutdown();
  await server.close();
});

/** Streams through the kernel handle; the call itself must not throw. */
function stream(context: Context, options: StreamOptions = baseOptions(), target: Model = model) {
  let result: ReturnType<AiProvider["stream"]> | undefined;
  expect(() => (result = provider.call("stream", target, context, options))).not.toThrow();
  return result!;
}

function deltas(events: AssistantMessageEvent[], type: "text_delta" | "thinking_delta" | "toolcall_delta"): string[] {
  return events.flatMap((e) => (e.type === type ? [e.delta] : []));
}

describe("provider-google streaming", () => {
  it("streams plain text", async () => {
    server.enqueue({ sse: fixtures.plainText });
    const { types, events, final } = await drain(stream(ask("Say hello")));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"]);
    expect(deltas(events, "text_delta")).toEqual(["Hello", " there", "!"]);
    expect(events.find((e) => e.type === "text_end")).toMatchObject({ contentIndex: 0, content: "Hello there!" });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
    expect(final).toMatchObject({
      role: "assistant",
      api: "google-generative-ai",
      provider: "google",
      model: "gemini-2.5-flash",
      responseId: "resp-plain",
      stopReason: "stop",
      content: [{ type: "text", text: "Hello there!" }],
    });
    expect(final.errorMessage).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(server.requests[0]!.headers["x-goog-api-key"]).toBe("test-key");
  });

  it("streams thinking then text, keeping the thought signature on the block it came with", async () => {
    server.enqueue({ sse: fixtures.thinkingThenText });
    const { types, events, final } = await drain(stream(ask("What is 2+2?"), baseOptions({ reasoning: "medium" })));
    expect(types).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "done",
    ]);
    expect(deltas(events, "thinking_delta")).toEqual([
      "**Weighing the question**\n\nThe user asks for 2+2.",
      " Simple arithmetic.",
    ]);
    expect(events.find((e) => e.type === "thinking_end")).toMatchObject({
      contentIndex: 0,
      content: "**Weighing the question**\n\nThe user asks for 2+2. Simple arithmetic.",
    });
    expect(events.find((e) => e.type === "text_end")).toMatchObject({ contentIndex: 1, content: "2 + 2 = 4." });
    expect(final.content).toEqual([
      { type: "thinking", thinking: "**Weighing the question**\n\nThe user asks for 2+2. Simple arithmetic." },
      { type: "text", text: "2 + 2 = 4.", textSignature: "Q2lRQjRjZXhUaG91Z2h0U2lnQQ==" },
    ]);
    expect(final.stopReason).toBe("stop");
    expect(final.usage).toMatchObject({ input: 20, output: 46, cacheRead: 0, cacheWrite: 0, totalTokens: 66 });
  });

  it("keeps a signature that arrives on a part without text on the open text block", async () => {
    server.enqueue({ sse: fixtures.signatureOnlyPart });
    const { types, final } = await drain(stream(ask("Finish")));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
    expect(final.content).toEqual([{ type: "text", text: "Done.", textSignature: "RW5kU2lnbmF0dXJl" }]);
  });

  it("streams one whole tool call as start, one JSON delta, end; the turn stops for tool use", async () => {
    server.enqueue({ sse: fixtures.oneToolCall });
    const { types, events, final } = await drain(stream(ask("Read src/main.ts")));
    expect(types).toEqual([
      "start",
      "text_start",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
    expect(events.find((e) => e.type === "toolcall_start")).toMatchObject({ contentIndex: 1 });
    expect(deltas(events, "toolcall_delta")).toEqual(['{"path":"src/main.ts","limit":20}']);
    const end = events.find((e) => e.type === "toolcall_end");
    expect(end).toMatchObject({
      contentIndex: 1,
      toolCall: {
        type: "toolCall",
        name: "read",
        arguments: { path: "src/main.ts", limit: 20 },
        thoughtSignature: "Q2lRQjRjZXhTaWdGb3JSZWFk",
      },
    });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "toolUse" });
    expect(final.stopReason).toBe("toolUse");
    const call = final.content[1];
    expect(call?.type === "toolCall" && call.id).toMatch(/^read_[a-z0-9]+_1$/);
  });

  const parallelCases: Array<[string, SseEvent[]]> = [
    ["three calls over three chunks", fixtures.parallelCallsOverChunks],
    ["three calls in one chunk", fixtures.parallelCallsOneChunk],
  ];
  for (const [label, sse] of parallelCases) {
    it(`streams ${label}, each as its own start/delta/end with the right arguments`, async () => {
      server.enqueue({ sse });
      const { types, events, final } = await drain(stream(ask("Look around")));
      expect(types).toEqual([
        "start",
        "toolcall_start",
        "toolcall_delta",
        "toolcall_end",
        "toolcall_start",
        "toolcall_delta",
        "toolcall_end",
        "toolcall_start",
        "toolcall_delta",
        "toolcall_end",
        "done",
      ]);
      expect(
        events.filter((e) => e.type.startsWith("toolcall_")).map((e) => (e as { contentIndex: number }).contentIndex),
      ).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
      expect(deltas(events, "toolcall_delta")).toEqual([
        '{"path":"a.ts"}',
        '{"path":"b.ts"}',
        '{"command":"ls -la","timeout":5}',
      ]);
      const calls = events.flatMap((e) => (e.type === "toolcall_end" ? [e.toolCall] : []));
      expect(calls.map((c) => [c.name, c.arguments])).toEqual([
        ["read", { path: "a.ts" }],
        ["read", { path: "b.ts" }],
        ["bash", { command: "ls -la", timeout: 5 }],
      ]);
      expect(calls[0]!.thoughtSignature).toBe("U2lnRm9yQQ==");
      expect(calls[1]!.thoughtSignature).toBeUndefined();
      expect(new Set(calls.map((c) => c.id)).size).toBe(3);
      expect(final.stopReason).toBe("toolUse");
      expect(final.content).toEqual(calls);
    });
  }

  it("generates the same ids when the same answer is read again, and keeps Gemini's own id", async () => {
    server.enqueue(
      { sse: fixtures.parallelCallsOneChunk },
      { sse: fixtures.parallelCallsOneChunk },
      { sse: fixtures.toolCallWithId },
    );
    const first = await drain(stream(ask("Look around")));
    const second = await drain(stream(ask("Look around")));
    const ids = (m: typeof first.final) => m.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : []));
    expect(ids(second.final)).toEqual(ids(first.final));
    const own = await drain(stream(ask("List")));
    expect(ids(own.final)).toEqual(["gemini-call-7"]);
  });

  it("fills usage from usageMetadata and prices it: cached tokens move to cacheRead, thoughts count as output", async () => {
    server.enqueue({ sse: fixtures.cachedUsage });
    const { final } = await drain(stream(ask("Again")));
    expect(final.usage.input).toBe(2_000);
    expect(final.usage.output).toBe(2_000);
    expect(final.usage.cacheRead).toBe(8_000);
    expect(final.usage.cacheWrite).toBe(0);
    expect(final.usage.totalTokens).toBe(12_000);
    expect(final.usage.cost.input).toBeCloseTo((2_000 * 0.3) / 1e6, 12);
    expect(final.usage.cost.output).toBeCloseTo((2_000 * 2.5) / 1e6, 12);
    expect(final.usage.cost.cacheRead).toBeCloseTo((8_000 * 0.075) / 1e6, 12);
    expect(final.usage.cost.total).toBeCloseTo(
      final.usage.cost.input + final.usage.cost.output + final.usage.cost.cacheRead,
      12,
    );
  });

  it("maps MAX_TOKENS to length", async () => {
    server.enqueue({ sse: fixtures.maxTokens });
    const { types, final } = await drain(stream(ask("Write a lot")));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
    expect(final.stopReason).toBe("length");
  });

  it("ends a SAFETY stop in an error event that says why, keeping the partial text", async () => {
    server.enqueue({ sse: fixtures.safetyStop });
    const { types, final } = await drain(stream(ask("Something risky")));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toBe("the answer was blocked by Gemini's safety filters (SAFETY)");
    expect(final.content).toEqual([{ type: "text", text: "I can" }]);
  });

  it("ends a refused prompt in an error event naming the block reason", async () => {
    server.enqueue({ sse: fixtures.promptBlocked });
    const { types, final } = await drain(stream(ask("Something prohibited")));
    expect(types).toEqual(["start", "error"]);
    expect(final.errorMessage).toBe("Gemini refused the prompt (PROHIBITED_CONTENT)");
  });

  it("ends a connection dropped mid-stream in an error event, without a retry", async () => {
    server.enqueue({ sse: fixtures.longText, dropAfter: 2 });
    const { types, final } = await drain(stream(ask("Count")));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toMatch(/^Request to Gemini failed: terminated/);
    expect(final.content).toEqual([{ type: "text", text: "One. Two. " }]);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a connection dropped before any content, transparently", async () => {
    server.enqueue({ sse: fixtures.longText, dropAfter: 0 }, { sse: fixtures.plainText });
    const { types, final } = await drain(stream(ask("Say hello")));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"]);
    expect(final.content).toEqual([{ type: "text", text: "Hello there!" }]);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a 429 with retry-after: 0 transparently (the header is honoured, not the slow backoff)", async () => {
    server.enqueue(
      { status: 429, headers: { "retry-after": "0" }, json: fixtures.errors.rateLimitedNoRetryInfo },
      { sse: fixtures.plainText },
    );
    // A backoff of a minute would time the test out: only the server's Retry-After makes it pass.
    const slowBackoff = { enabled: true, maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 120_000 };
    const { types, final } = await drain(stream(ask("Say hello"), baseOptions({ retry: slowBackoff })));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"]);
    expect(final.stopReason).toBe("stop");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
  });

  it("honours Google's RetryInfo retryDelay in a 429 body the same way", async () => {
    server.enqueue({ status: 429, json: fixtures.errors.rateLimited }, { sse: fixtures.plainText });
    const slowBackoff = { enabled: true, maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 120_000 };
    const { final } = await drain(stream(ask("Say hello"), baseOptions({ retry: slowBackoff })));
    expect(final.stopReason).toBe("stop");
    expect(server.requests).toHaveLength(2);
  });

  it("gives up after the policy's retries with the API's message", async () => {
    server.enqueue(
      { status: 503, json: fixtures.errors.unavailable },
      { status: 503, json: fixtures.errors.unavailable },
      { status: 503, json: fixtures.errors.unavailable },
    );
    const { types, final } = await drain(stream(ask("Hi")));
    expect(types).toEqual(["error"]);
    expect(final.errorMessage).toBe(
      "Google API error 503 UNAVAILABLE: The model is overloaded. Please try again later.",
    );
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry when the retry policy is disabled", async () => {
    server.enqueue({ status: 429, json: fixtures.errors.rateLimited }, { sse: fixtures.plainText });
    const { final } = await drain(
      stream(ask("Hi"), baseOptions({ retry: { enabled: false, maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1 } })),
    );
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toBe(
      "Google API error 429 RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan and billing details.",
    );
    expect(server.requests).toHaveLength(1);
  });

  const authCases: Array<[number, keyof typeof fixtures.errors, string]> = [
    [401, "unauthenticated", "Google API error 401 UNAUTHENTICATED: Request had invalid authentication credentials."],
    [403, "permissionDenied", "Google API error 403 PERMISSION_DENIED: Method doesn't allow unregistered callers"],
  ];
  for (const [status, body, message] of authCases) {
    it(`ends a ${status} in an error event after exactly one request`, async () => {
      server.enqueue({ status, json: fixtures.errors[body] }, { sse: fixtures.plainText });
      const { types, final } = await drain(stream(ask("Hi")));
      expect(types).toEqual(["error"]);
      expect(final.stopReason).toBe("error");
      expect(final.errorMessage!.startsWith(message)).toBe(true);
      expect(final.content).toEqual([]);
      expect(server.requests).toHaveLength(1);
    });
  }

  it("keeps a context-overflow message word for word", async () => {
    server.enqueue({ status: 400, json: fixtures.errors.contextOverflow });
    const { final } = await drain(stream(ask("A huge prompt")));
    expect(final.errorMessage).toBe(
      "Google API error 400 INVALID_ARGUMENT: The input token count (1203411) exceeds the maximum number of tokens allowed (1048576).",
    );
    expect(final.errorMessage).toMatch(/input token count.*exceeds the maximum/);
    expect(server.requests).toHaveLength(1);
  });

  it("ends an error chunk inside the stream in an error event with its message", async () => {
    server.enqueue({ sse: [fixtures.plainText[0]!, { data: fixtures.errors.unavailable }] });
    const { types, final } = await drain(stream(ask("Hi")));
    expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
    expect(final.errorMessage).toBe(
      "Google API error 503 UNAVAILABLE: The model is overloaded. Please try again later.",
    );
  });

  it("ends an abort mid-stream with stopReason aborted, and the connection is closed", async () => {
    server.enqueue({ sse: fixtures.longText, stallAfter: 2 });
    const controller = new AbortController();
    const gone = server.clientGone();
    let seen = 0;
    const { types, final } = await drain(stream(ask("Count"), baseOptions({ signal: controller.signal })), (event) => {
      if (event.type === "text_delta" && ++seen === 2) controller.abort();
    });
    await gone;
    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(final.stopReason).toBe("aborted");
    expect(final.errorMessage).toBe("Request was aborted");
    expect(final.content).toEqual([{ type: "text", text: "One. Two. " }]);
    expect(server.requests).toHaveLength(1);
  });

  it("ends at once when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    server.enqueue({ sse: fixtures.plainText });
    const { types, final } = await drain(stream(ask("Hi"), baseOptions({ signal: controller.signal })));
    expect(types).toEqual(["error"]);
    expect(final.stopReason).toBe("aborted");
  });

  it("ends a malformed SSE line in an error event that quotes it", async () => {
    server.enqueue({ sse: fixtures.longText.slice(0, 2), rawTail: `${fixtures.MALFORMED_LINE}\n\n` });
    const { types, final } = await drain(stream(ask("Count")));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toBe(`Gemini sent a malformed stream event: ${fixtures.MALFORMED_LINE}`);
    expect(final.content).toEqual([{ type: "text", text: "One. Two. " }]);
  });

  it("quotes a trailing line left without its blank-line terminator", async () => {
    server.enqueue({ sse: fixtures.longText.slice(0, 1), rawTail: 'data: {"candidates": [' });
    const { final } = await drain(stream(ask("Count")));
    expect(final.errorMessage).toBe('Gemini sent a malformed stream event: data: {"candidates": [');
  });

  it("ends a stream that stops without a finish reason in an error event", async () => {
    server.enqueue({ sse: fixtures.longText.slice(0, 2) });
    const { types, final } = await drain(stream(ask("Count")));
    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "error"]);
    expect(final.errorMessage).toBe("Gemini's stream ended without a finish reason; the answer may be cut off");
  });

  it("ends in an error event, without a request, when no API key is available", async () => {
    const saved = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, GOOGLE_API_KEY: process.env.GOOGLE_API_KEY };
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    try {
      const { types, final } = await drain(stream(ask("Hi"), { retry: baseOptions().retry }));
      expect(types).toEqual(["error"]);
      expect(final.errorMessage).toBe('No API key for provider "google": pass --api-key or set GEMINI_API_KEY');
      expect(server.requests).toHaveLength(0);
    } finally {
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    }
  });

  it("uses GEMINI_API_KEY for Google, but never hands it to another provider on this API", async () => {
    const saved = process.env.GEMINI_API_KEY;
    process.env.GEMINI_API_KEY = "key-from-env";
    try {
      server.enqueue({ sse: fixtures.plainText });
      const google = await drain(stream(ask("Hi"), { retry: baseOptions().retry }));
      expect(google.final.stopReason).toBe("stop");
      expect(server.requests[0]!.headers["x-goog-api-key"]).toBe("key-from-env");
      const proxy = await drain(
        stream(ask("Hi"), { retry: baseOptions().retry }, geminiModel(server.url, { provider: "my-proxy" })),
      );
      expect(proxy.types).toEqual(["error"]);
      expect(proxy.final.errorMessage).toBe(
        'No API key for provider "my-proxy": pass --api-key or add one for it to auth.json',
      );
      expect(server.requests).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.GEMINI_API_KEY;
      else process.env.GEMINI_API_KEY = saved;
    }
  });

  it("ends in an error event when the server cannot be reached", async () => {
    const closed = await new MockLlmServer().start();
    const url = closed.url;
    await closed.close();
    const { types, final } = await drain(stream(ask("Hi"), baseOptions(), geminiModel(url)));
    expect(types).toEqual(["error"]);
    expect(final.errorMessage).toMatch(/^Request to Gemini failed: fetch failed/);
  });
});
