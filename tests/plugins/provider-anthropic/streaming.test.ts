/**
 * Acceptance 1: provider-anthropic streams through the real @anthropic-ai/sdk against the mock server,
 * and every outcome — answers, tool calls, usage, dropped connections, HTTP errors, aborts, malformed
 * lines — is an exact event sequence ending in one `done` or one `error`. Nothing throws.
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type {
  AiProvider,
  AssistantMessageEvent,
  Context,
  RetryPolicy,
  StreamOptions,
  ToolCall,
} from "../../../contracts/ai/index.js";
import type { Handle, Kernel } from "../../../kernel/index.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import {
  ANSWER_OPENING,
  AUTH_FAILED_BODY,
  MALFORMED_DATA_LINE,
  MALFORMED_TAIL,
  OVERLOADED_MID_STREAM,
  PROMPT_TOO_LONG_BODY,
  RATE_LIMITED_BODY,
} from "../../fixtures/sse/anthropic-messages/errors.js";
import { TEXT_ANSWER, textAnswerStoppingWith } from "../../fixtures/sse/anthropic-messages/text.js";
import { REDACTED_DATA, THINKING_ANSWER, THINKING_SIGNATURE } from "../../fixtures/sse/anthropic-messages/thinking.js";
import {
  ONE_TOOL_CALL,
  PARALLEL_ARGUMENT_CHUNKS,
  THREE_PARALLEL_TOOL_CALLS,
  WEATHER_ARGUMENT_CHUNKS,
} from "../../fixtures/sse/anthropic-messages/tool-calls.js";
import { bootAnthropic, claudeModel, collect, FAST_RETRY, user } from "./helpers.js";

const CONTEXT: Context = { systemPrompt: "You are terse.", messages: [user("Say hello")] };

let server: MockLlmServer;
let kernel: Kernel;
let provider: Handle<AiProvider>;

beforeEach(async () => {
  server = await new MockLlmServer().start();
  ({ kernel, provider } = await bootAnthropic());
});

afterEach(async () => {
  await kernel.shutdown();
  await server.close();
});

/** Starts a stream through the kernel handle; `call` itself must not throw. */
function stream(options: StreamOptions = {}, context: Context = CONTEXT, baseUrl = server.url) {
  return provider.call("stream", claudeModel(baseUrl), context, {
    apiKey: "sk-ant-test",
    retry: FAST_RETRY,
    ...options,
  });
}

const TEXT_SEQUENCE = ["start", "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done"];

describe("provider-anthropic: successful streams", () => {
  it("streams plain text: start, text events, one done, and the final message", async () => {
    server.enqueue({ sse: TEXT_ANSWER });
    const { events, types, result } = await collect(stream());

    expect(types).toEqual(TEXT_SEQUENCE);
    expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta)).toEqual([
      "Hello",
      ", world!",
      " How can I help?",
    ]);
    expect(events.find((e) => e.type === "text_end")).toMatchObject({
      contentIndex: 0,
      content: "Hello, world! How can I help?",
    });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
    expect(result).toMatchObject({
      role: "assistant",
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      responseId: "msg_01XFDUDYJgAACzvnptvVoYEL",
      stopReason: "stop",
      content: [{ type: "text", text: "Hello, world! How can I help?" }],
    });
    expect(result.errorMessage).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toBe("/v1/messages");
  });

  it("fills usage from message_start and message_delta and prices it with the model's costs", async () => {
    server.enqueue({ sse: TEXT_ANSWER });
    const { result } = await collect(stream());

    expect(result.usage).toMatchObject({ input: 1200, output: 12, cacheRead: 300, cacheWrite: 100, totalTokens: 1612 });
    expect(result.usage.cost.input).toBeCloseTo((1200 * 3) / 1e6, 12);
    expect(result.usage.cost.output).toBeCloseTo((12 * 15) / 1e6, 12);
    expect(result.usage.cost.cacheRead).toBeCloseTo((300 * 0.3) / 1e6, 12);
    expect(result.usage.cost.cacheWrite).toBeCloseTo((100 * 3.75) / 1e6, 12);
    expect(result.usage.cost.total).toBeCloseTo((1200 * 3 + 12 * 15 + 300 * 0.3 + 100 * 3.75) / 1e6, 12);
  });

  it("streams thinking with its signature, redacted thinking, then text", async () => {
    server.enqueue({ sse: THINKING_ANSWER });
    const { events, types, result } = await collect(stream({ reasoning: "medium" }));

    expect(types).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "thinking_start",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "done",
    ]);
    expect(events.find((e) => e.type === "thinking_end")).toMatchObject({
      contentIndex: 0,
      content: "The user asks for 27 * 453. 27 * 453 = 12231.",
    });
    expect(result.content).toEqual([
      {
        type: "thinking",
        thinking: "The user asks for 27 * 453. 27 * 453 = 12231.",
        thinkingSignature: THINKING_SIGNATURE,
      },
      { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: REDACTED_DATA, redacted: true },
      { type: "text", text: "27 * 453 = 12231" },
    ]);
    expect(result.stopReason).toBe("stop");
    expect(result.usage.output).toBe(164);
  });

  it("streams one tool call: arguments grow as partial JSON with each toolcall_delta", async () => {
    server.enqueue({ sse: ONE_TOOL_CALL });
    const argumentsSeen: unknown[] = [];
    const { events, types, result } = await collect(stream(), (event) => {
      if (event.type === "toolcall_delta")
        argumentsSeen.push(structuredClone((event.partial.content[event.contentIndex] as ToolCall).arguments));
    });

    expect(types).toEqual([
      "start",
      "text_start",
      "text_delta",
      "text_end",
      "toolcall_start",
      ...WEATHER_ARGUMENT_CHUNKS.map(() => "toolcall_delta"),
      "toolcall_end",
      "done",
    ]);
    const deltas = events.filter(
      (e): e is Extract<AssistantMessageEvent, { type: "toolcall_delta" }> => e.type === "toolcall_delta",
    );
    expect(deltas.map((d) => d.delta)).toEqual(WEATHER_ARGUMENT_CHUNKS);
    expect(deltas.every((d) => d.contentIndex === 1)).toBe(true);
    expect(argumentsSeen).toEqual([
      {},
      {},
      { location: "San" },
      { location: "San Francisco," },
      { location: "San Francisco, CA" },
      { location: "San Francisco, CA", unit: "cel" },
      { location: "San Francisco, CA", unit: "celsius" },
    ]);
    const toolCall: ToolCall = {
      type: "toolCall",
      id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
      name: "get_weather",
      arguments: { location: "San Francisco, CA", unit: "celsius" },
    };
    expect(events.find((e) => e.type === "toolcall_end")).toMatchObject({ contentIndex: 1, toolCall });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "toolUse" });
    expect(result.stopReason).toBe("toolUse");
    expect(result.content).toEqual([{ type: "text", text: "I'll check the weather." }, toolCall]);
  });

  it("streams three parallel tool calls, each with arguments split over many chunks", async () => {
    server.enqueue({ sse: THREE_PARALLEL_TOOL_CALLS });
    const { events, types, result } = await collect(stream());

    const { read, bash, grep } = PARALLEL_ARGUMENT_CHUNKS as { read: string[]; bash: string[]; grep: string[] };
    const callEvents = (chunks: string[]) => ["toolcall_start", ...chunks.map(() => "toolcall_delta"), "toolcall_end"];
    expect(types).toEqual(["start", ...callEvents(read), ...callEvents(bash), ...callEvents(grep), "done"]);

    const deltasOf = (contentIndex: number) =>
      events
        .filter(
          (e): e is Extract<AssistantMessageEvent, { type: "toolcall_delta" }> =>
            e.type === "toolcall_delta" && e.contentIndex === contentIndex,
        )
        .map((e) => e.delta);
    expect(deltasOf(0)).toEqual(read);
    expect(deltasOf(1)).toEqual(bash);
    expect(deltasOf(2)).toEqual(grep);

    expect(result.stopReason).toBe("toolUse");
    expect(result.content).toEqual([
      {
        type: "toolCall",
        id: "toolu_01A09q90qw90lq917835lq9",
        name: "read",
        arguments: { path: "src/agent.ts", offset: 10, limit: 50 },
      },
      {
        type: "toolCall",
        id: "toolu_01B19q90qw90lq917835lq8",
        name: "bash",
        arguments: { command: 'ls -la && echo "done"', timeout: 30 },
      },
      {
        type: "toolCall",
        id: "toolu_01C29q90qw90lq917835lq7",
        name: "grep",
        arguments: { pattern: "TODO", paths: ["src", "tests"], ignoreCase: true },
      },
    ]);
    const ends = events
      .filter((e) => e.type === "toolcall_end")
      .map((e) => (e as { toolCall: ToolCall }).toolCall.name);
    expect(ends).toEqual(["read", "bash", "grep"]);
  });

  it("writes nothing to the console, even for a model id the SDK would warn about", async () => {
    const warn = vi.spyOn(console, "warn");
    const error = vi.spyOn(console, "error");
    try {
      server.enqueue({ sse: TEXT_ANSWER }, { sse: ANSWER_OPENING, rawTail: MALFORMED_TAIL });
      expect((await collect(stream())).result.stopReason).toBe("stop");
      expect((await collect(stream())).result.stopReason).toBe("error");
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it.each([
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["pause_turn", "stop"],
    ["stop_sequence", "stop"],
  ])("maps stop_reason %s to %s", async (apiReason, ourReason) => {
    server.enqueue({ sse: textAnswerStoppingWith(apiReason) });
    const { types, result } = await collect(stream());

    expect(types).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
    expect(result.stopReason).toBe(ourReason);
  });

  it("turns a refusal into an error event that keeps the partial text", async () => {
    server.enqueue({ sse: textAnswerStoppingWith("refusal") });
    const { types, result } = await collect(stream());

    expect(types).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
    expect(result.stopReason).toBe("error");
    expect(result.errorMessage).toBe("The model declined to answer (stop_reason: refusal)");
    expect(result.content).toEqual([{ type: "text", text: "Partial" }]);
  });
});

describe("provider-anthropic: failures end in one error event", () => {
  it("a connection dropped mid-stream: error event, stopReason error, partial content kept, no retry", async () => {
    server.enqueue({ sse: TEXT_ANSWER, dropAfter: 4 }, { sse: TEXT_ANSWER });
    const { types, result } = await collect(stream());

    expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
    expect(result.stopReason).toBe("error");
    expect(result.errorMessage).toBe("terminated (other side closed)");
    expect(result.content).toEqual([{ type: "text", text: "Hello" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("a connection dropped before any content is retried transparently", async () => {
    server.enqueue({ sse: TEXT_ANSWER, dropAfter: 1 }, { sse: TEXT_ANSWER });
    const { types, result } = await collect(stream());

    expect(types).toEqual(TEXT_SEQUENCE);
    expect(result.content).toEqual([{ type: "text", text: "Hello, world! How can I help?" }]);
    expect(result.usage.input).toBe(1200);
    expect(server.requests).toHaveLength(2);
  });

  it("a 429 with retry-after: 0, then success: retried transparently, one start, final done", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "0" }, json: RATE_LIMITED_BODY }, { sse: TEXT_ANSWER });
    // Backoff of a minute: only the server's Retry-After of 0 lets this finish within the test timeout.
    const slowBackoff: RetryPolicy = { enabled: true, maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 };
    const { types, result } = await collect(stream({ retry: slowBackoff }));

    expect(types).toEqual(TEXT_SEQUENCE);
    expect(result.stopReason).toBe("stop");
    expect(result.content).toEqual([{ type: "text", text: "Hello, world! How can I help?" }]);
    expect(server.requests).toHaveLength(2);
  });

  it("a 429 that outlasts the retry budget ends in an error event with the API's message", async () => {
    const limited = { status: 429, headers: { "retry-after": "0" }, json: RATE_LIMITED_BODY };
    server.enqueue(limited, limited, limited);
    const { types, result } = await collect(stream({ retry: { ...FAST_RETRY, maxRetries: 2 } }));

    expect(types).toEqual(["error"]);
    expect(result.errorMessage).toBe(
      "429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit",
    );
    expect(server.requests).toHaveLength(3);
  });

  it("a 401: error event with the API's message, and no retry", async () => {
    server.enqueue({ status: 401, json: AUTH_FAILED_BODY }, { sse: TEXT_ANSWER });
    const { types, result } = await collect(stream());

    expect(types).toEqual(["error"]);
    expect(result.stopReason).toBe("error");
    expect(result.errorMessage).toBe("401 authentication_error: invalid x-api-key");
    expect(result.content).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("a context overflow keeps the API's 'prompt is too long' text, and is not retried", async () => {
    server.enqueue({ status: 400, json: PROMPT_TOO_LONG_BODY }, { sse: TEXT_ANSWER });
    const { types, result } = await collect(stream());

    expect(types).toEqual(["error"]);
    expect(result.errorMessage).toBe("400 invalid_request_error: prompt is too long: 208315 tokens > 200000 maximum");
    expect(server.requests).toHaveLength(1);
  });

  it("an abort mid-stream: error event with stopReason aborted, and the connection is closed", async () => {
    server.enqueue({ sse: TEXT_ANSWER, stallAfter: 4 });
    const clientGone = server.clientGone();
    const controller = new AbortController();
    const { types, result } = await collect(stream({ signal: controller.signal }), (event) => {
      if (event.type === "text_delta") controller.abort();
    });
    await clientGone;

    expect(types).toEqual(["start", "text_start", "text_delta", "error"]);
    expect(result.stopReason).toBe("aborted");
    expect(result.errorMessage).toBe("Request was aborted");
    expect(result.content).toEqual([{ type: "text", text: "Hello" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("a signal aborted before the call: one error event with stopReason aborted, nothing sent", async () => {
    const controller = new AbortController();
    controller.abort();
    const { types, result } = await collect(stream({ signal: controller.signal }));

    expect(types).toEqual(["error"]);
    expect(result.stopReason).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });

  it("a malformed SSE data line: error event whose message quotes the line", async () => {
    server.enqueue({ sse: ANSWER_OPENING, rawTail: MALFORMED_TAIL });
    const { types, result } = await collect(stream());

    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(result.stopReason).toBe("error");
    expect(result.errorMessage).toContain(MALFORMED_DATA_LINE);
    expect(result.errorMessage).toMatch(/^Malformed Anthropic stream event \(data is not JSON\): /);
    expect(result.content).toEqual([{ type: "text", text: "Hello there" }]);
  });

  it("an error event mid-stream (overloaded_error): error event with the API's type and message", async () => {
    server.enqueue({ sse: OVERLOADED_MID_STREAM }, { sse: TEXT_ANSWER });
    const { types, result } = await collect(stream());

    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(result.stopReason).toBe("error");
    expect(result.errorMessage).toBe("overloaded_error: Overloaded");
    expect(server.requests).toHaveLength(1);
  });

  it("an overloaded_error event before any content is retried transparently", async () => {
    const overloadedFirst = [
      ANSWER_OPENING[0]!,
      { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
    ];
    server.enqueue({ sse: overloadedFirst }, { sse: TEXT_ANSWER });
    const { types, result } = await collect(stream());

    expect(types).toEqual(TEXT_SEQUENCE);
    expect(result.responseId).toBe("msg_01XFDUDYJgAACzvnptvVoYEL");
    expect(server.requests).toHaveLength(2);
  });

  it("after an error event the connection is closed, not left open by the server's stalled stream", async () => {
    server.enqueue({
      sse: [...OVERLOADED_MID_STREAM, ...TEXT_ANSWER.slice(-3)],
      stallAfter: OVERLOADED_MID_STREAM.length,
    });
    const clientGone = server.clientGone();
    const { types } = await collect(stream());
    await clientGone;

    expect(types.at(-1)).toBe("error");
  });

  it("a signal shared by many requests keeps no abort listeners once each stream ends", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 12; i++) server.enqueue({ sse: TEXT_ANSWER });
    for (let i = 0; i < 12; i++) {
      const { result } = await collect(stream({ signal: controller.signal }));
      expect(result.stopReason).toBe("stop");
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    }
  });

  it("a stream that ends cleanly before message_stop is an error, not a silent done", async () => {
    server.enqueue({ sse: ANSWER_OPENING });
    const { types, result } = await collect(stream({ retry: { ...FAST_RETRY, enabled: false } }));

    expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(result.errorMessage).toBe("Anthropic stream ended before message_stop (the connection closed early)");
  });

  it("no API key: one error event with a one-line hint, nothing sent", async () => {
    const model = claudeModel(server.url, { provider: "my-proxy" });
    const { types, result } = await collect(provider.call("stream", model, CONTEXT, {}));

    expect(types).toEqual(["error"]);
    expect(result.errorMessage).toBe(
      'No API key for provider "my-proxy": add a key for "my-proxy" to auth.json or pass --api-key',
    );
    expect(server.requests).toHaveLength(0);
  });

  it("an unreachable server: error event after the retries, never a throw", async () => {
    const closed = await new MockLlmServer().start();
    const deadUrl = closed.url;
    await closed.close();
    const { types, result } = await collect(stream({ retry: { ...FAST_RETRY, maxRetries: 1 } }, CONTEXT, deadUrl));

    expect(types).toEqual(["error"]);
    expect(result.stopReason).toBe("error");
    expect(result.errorMessage).toMatch(/Connection error|ECONNREFUSED/);
  });
});
