/**
 * provider-mistral against a local server speaking Mistral's chat completions SSE: streamed text with
 * usage (cached prompt tokens), thinking chunks with reasoning_effort, a tool call and its result sent
 * back with Mistral's nine-character ids, and an HTTP error ending the stream as data.
 */
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AiProviderContract,
  type AiProvider,
  type AssistantMessage,
  type AssistantMessageEvent,
  type Context,
  type Model,
  type StreamOptions,
} from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import plugin from "../../../plugins/ai/provider-mistral/index.js";
import { Kernel } from "../../schema-kernel.js";
import { MockLlmServer, type SseEvent } from "../../support/mock-llm-server.js";

let server: MockLlmServer;
let kernel: Kernel;
let provider: Handle<AiProvider>;

beforeEach(async () => {
  server = await new MockLlmServer().start();
  kernel = new Kernel();
  const booted = await kernel.boot([
    { id: "provider-mistral", source: { kind: "inline", label: "provider-mistral", definition: plugin } },
  ]);
  expect(booted.errors).toEqual([]);
  provider = kernel
    .useAll(AiProviderContract)
    .list()
    .find((h) => h.peek()?.api === "mistral-conversations")!;
  expect(provider).toBeDefined();
});
afterEach(async () => {
  await kernel.shutdown();
  await server.close();
});

function model(overrides: Partial<Model> = {}): Model {
  return {
    id: "mistral-medium-latest",
    name: "Mistral Medium",
    api: "mistral-conversations",
    provider: "mistral",
    baseUrl: server.url,
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 0.4, output: 2, cacheRead: 0.04, cacheWrite: 0 },
    contextWindow: 128_000,
    maxTokens: 16_384,
    ...overrides,
  };
}

const chunk = (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}): SseEvent => ({
  data: {
    id: "cmpl-1",
    object: "chat.completion.chunk",
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  },
});
const DONE = "data: [DONE]\n\n";

async function run(target: Model, context: Context, options: StreamOptions = {}) {
  const events: AssistantMessageEvent[] = [];
  const stream = provider.api.stream(target, context, { apiKey: "mistral-key", ...options });
  for await (const event of stream) events.push(event);
  return { events, message: await stream.result() };
}

const ask = (text: string, extra: Partial<Context> = {}): Context => ({
  systemPrompt: "Be brief.",
  messages: [{ role: "user", content: text, timestamp: 1 }],
  ...extra,
});

describe("provider-mistral", () => {
  it("streams text to /v1/chat/completions with the bearer, and counts cached prompt tokens", async () => {
    server.enqueue({
      sse: [
        chunk({ role: "assistant", content: "" }),
        chunk({ content: "Hello" }),
        chunk({ content: " there" }),
        chunk({ content: "" }, "stop", {
          usage: {
            prompt_tokens: 100,
            completion_tokens: 5,
            total_tokens: 105,
            prompt_tokens_details: { cached_tokens: 40 },
          },
        }),
      ],
      rawTail: DONE,
    });
    const { events, message } = await run(model(), ask("hi"), { maxTokens: 500, sessionId: "sess-1" });
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
    expect(message.content).toEqual([{ type: "text", text: "Hello there" }]);
    expect(message.stopReason).toBe("stop");
    expect(message.responseId).toBe("cmpl-1");
    expect(message.usage).toMatchObject({ input: 60, output: 5, cacheRead: 40, totalTokens: 105 });
    expect(message.usage.cost.total).toBeGreaterThan(0);
    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer mistral-key");
    expect(request.headers["x-affinity"]).toBe("sess-1");
    expect(request.body).toEqual({
      model: "mistral-medium-latest",
      stream: true,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      max_tokens: 500,
      prompt_cache_key: "sess-1",
    });
  });

  it("streams thinking chunks as a thinking block and asks a reasoning model for reasoning_effort", async () => {
    server.enqueue({
      sse: [
        chunk({ role: "assistant", content: [{ type: "thinking", thinking: [{ type: "text", text: "Let me " }] }] }),
        chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "think." }] }] }),
        chunk({ content: [{ type: "text", text: "Four." }] }),
        chunk({ content: "" }, "stop"),
      ],
      rawTail: DONE,
    });
    const target = model({ id: "magistral-medium-latest", reasoning: true });
    const { events, message } = await run(target, ask("2+2?"), { reasoning: "medium" });
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Let me think." },
      { type: "text", text: "Four." },
    ]);
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_end",
      "done",
    ]);
    expect(server.requests[0]!.body.reasoning_effort).toBe("high");

    // The thinking goes back to the same model as a thinking chunk.
    server.enqueue({ sse: [chunk({ content: "ok" }, "stop")], rawTail: DONE });
    await run(target, {
      messages: [...ask("2+2?").messages, message, { role: "user", content: "sure?", timestamp: 2 }],
    });
    expect(server.requests[1]!.body.messages[1]).toEqual({
      role: "assistant",
      prefix: false,
      content: [
        { type: "thinking", thinking: [{ type: "text", text: "Let me think." }] },
        { type: "text", text: "Four." },
      ],
    });
  });

  it("streams a tool call, then sends the call and its result back with nine-character ids", async () => {
    server.enqueue({
      sse: [
        chunk({ role: "assistant", content: "" }),
        chunk({ tool_calls: [{ id: "abcXYZ123", index: 0, function: { name: "read", arguments: '{"path":' } }] }),
        chunk({ tool_calls: [{ id: "null", index: 0, function: { name: "read", arguments: '"a.txt"}' } }] }),
        chunk({ content: "" }, "tool_calls"),
      ],
      rawTail: DONE,
    });
    const tools = [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }];
    const { events, message } = await run(model(), ask("read a.txt", { tools }));
    expect(message.stopReason).toBe("toolUse");
    expect(message.content).toEqual([
      { type: "toolCall", id: "abcXYZ123", name: "read", arguments: { path: "a.txt" } },
    ]);
    expect(events.filter((e) => e.type === "toolcall_delta")).toHaveLength(2);
    expect(events.find((e) => e.type === "toolcall_end")).toMatchObject({ toolCall: { arguments: { path: "a.txt" } } });
    expect(server.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "read",
          description: "Read a file",
          parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
          strict: false,
        },
      },
    ]);

    // A call written by another provider gets a nine-character id; its result follows it.
    const foreign: AssistantMessage = {
      ...message,
      provider: "openai",
      api: "openai-completions",
      model: "gpt",
      content: [{ type: "toolCall", id: "call_0123456789abcdef", name: "read", arguments: { path: "b.txt" } }],
    };
    server.enqueue({ sse: [chunk({ content: "done" }, "stop")], rawTail: DONE });
    const history: Context = {
      tools,
      messages: [
        { role: "user", content: "read", timestamp: 1 },
        message,
        {
          role: "toolResult",
          toolCallId: "abcXYZ123",
          toolName: "read",
          content: [{ type: "text", text: "A" }],
          isError: false,
          timestamp: 2,
        },
        foreign,
        {
          role: "toolResult",
          toolCallId: "call_0123456789abcdef",
          toolName: "read",
          content: [{ type: "text", text: "B" }],
          isError: true,
          timestamp: 3,
        },
      ],
    };
    const answer = await run(model(), history);
    expect(answer.message.content).toEqual([{ type: "text", text: "done" }]);
    const sent = server.requests[1]!.body.messages as Array<Record<string, any>>;
    expect(sent[1]).toEqual({
      role: "assistant",
      prefix: false,
      tool_calls: [
        { id: "abcXYZ123", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' }, index: 0 },
      ],
    });
    expect(sent[2]).toEqual({
      role: "tool",
      tool_call_id: "abcXYZ123",
      name: "read",
      content: [{ type: "text", text: "A" }],
    });
    const foreignId = sent[3]!.tool_calls[0].id as string;
    expect(foreignId).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(sent[4]).toMatchObject({
      role: "tool",
      tool_call_id: foreignId,
      content: [{ type: "text", text: "[tool error] B" }],
    });
  });

  it("ends with an error event carrying Mistral's own words on an HTTP error", async () => {
    server.enqueue({ status: 401, json: { message: "Unauthorized", type: "invalid_api_key" } });
    const { events, message } = await run(model(), ask("hi"));
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toContain("Mistral API error (401)");
    expect(message.errorMessage).toContain("invalid_api_key");
  });

  it("says which key is missing without sending anything", async () => {
    const stream = provider.api.stream(model(), ask("hi"), {});
    const message = await stream.result();
    expect(message.errorMessage).toMatch(/^No API key for provider "mistral": set MISTRAL_API_KEY/);
    expect(server.requests).toEqual([]);
  });
});
