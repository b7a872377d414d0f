/**
 * provider-pi-messages against a local server speaking pi's message protocol: the request is one POST
 * of `{ model, context, options }` to `<baseUrl>/messages` with the bearer; the answer's events (text,
 * thinking with a signature, a tool call, the terminal `done` with usage) become the stream; a gateway
 * error event, an HTTP error, a stream without a terminal event and an out-of-range index end as data.
 */
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AiProviderContract,
  type AiProvider,
  type AssistantMessageEvent,
  type Context,
  type Model,
} from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import plugin from "../../../plugins/ai/provider-pi-messages/index.js";
import { Kernel } from "../../schema-kernel.js";
import { MockLlmServer, type SseEvent } from "../../support/mock-llm-server.js";

let server: MockLlmServer;
let kernel: Kernel;
let provider: Handle<AiProvider>;

beforeEach(async () => {
  server = await new MockLlmServer().start();
  kernel = new Kernel();
  const booted = await kernel.boot([
    { id: "provider-pi-messages", source: { kind: "inline", label: "pi-messages", definition: plugin } },
  ]);
  expect(booted.errors).toEqual([]);
  provider = kernel
    .useAll(AiProviderContract)
    .list()
    .find((h) => h.peek()?.api === "pi-messages")!;
});
afterEach(async () => {
  await kernel.shutdown();
  await server.close();
});

const model = (): Model => ({
  id: "balanced",
  name: "Balanced",
  api: "pi-messages",
  provider: "radius",
  baseUrl: `${server.url}/v1`,
  reasoning: true,
  input: ["text"],
  cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 200_000,
  maxTokens: 32_000,
});
const usage = {
  input: 10,
  output: 4,
  cacheRead: 2,
  cacheWrite: 0,
  totalTokens: 16,
  cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
};
const tools = [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }];
const context: Context = {
  systemPrompt: "Be brief.",
  messages: [{ role: "user", content: "hi", timestamp: 1 }],
  tools,
};
const data = (event: Record<string, unknown>): SseEvent => ({ event: event.type as string, data: event });

async function run(options: { reasoning?: "high"; sessionId?: string } = {}) {
  const events: AssistantMessageEvent[] = [];
  const stream = provider.api.stream(model(), context, { apiKey: "radius-access", ...options });
  for await (const event of stream) events.push(event);
  return { events, message: await stream.result() };
}

describe("provider-pi-messages", () => {
  it("posts the model, context and options with the bearer and streams pi's events back", async () => {
    server.enqueue({
      sse: [
        data({ type: "start" }),
        data({ type: "thinking_start", contentIndex: 0 }),
        data({ type: "thinking_delta", contentIndex: 0, delta: "Hmm" }),
        data({ type: "thinking_end", contentIndex: 0, content: "Hmm.", contentSignature: "sig-1" }),
        data({ type: "text_start", contentIndex: 1 }),
        data({ type: "text_delta", contentIndex: 1, delta: "Reading" }),
        data({ type: "text_end", contentIndex: 1, content: "Reading" }),
        data({ type: "toolcall_start", contentIndex: 2, id: "call-1", toolName: "read" }),
        data({ type: "toolcall_delta", contentIndex: 2, delta: '{"path":"a' }),
        data({ type: "toolcall_delta", contentIndex: 2, delta: '.txt"}' }),
        data({
          type: "toolcall_end",
          contentIndex: 2,
          toolCall: { type: "toolCall", id: "call-1", name: "read", arguments: { path: "a.txt" } },
        }),
        data({ type: "done", reason: "toolUse", usage, responseId: "resp-9" }),
      ],
    });
    const { events, message } = await run({ reasoning: "high", sessionId: "s-1" });
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
    expect(message).toMatchObject({
      stopReason: "toolUse",
      responseId: "resp-9",
      usage,
      content: [
        { type: "thinking", thinking: "Hmm.", thinkingSignature: "sig-1" },
        { type: "text", text: "Reading" },
        { type: "toolCall", id: "call-1", name: "read", arguments: { path: "a.txt" } },
      ],
    });
    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers.authorization).toBe("Bearer radius-access");
    expect(request.body).toEqual({
      model: "balanced",
      context: {
        systemPrompt: "Be brief.",
        messages: [{ role: "user", content: "hi", timestamp: 1 }],
        tools: [
          { name: "read", description: "Read a file", parameters: JSON.parse(JSON.stringify(tools[0]!.parameters)) },
        ],
      },
      options: { reasoning: "high", sessionId: "s-1" },
    });
  });

  it("ends with the gateway's error event, its HTTP error, or a stream cut short, as data", async () => {
    server.enqueue({
      sse: [
        data({ type: "text_start", contentIndex: 0 }),
        data({ type: "error", reason: "error", usage, errorMessage: "upstream overloaded" }),
      ],
    });
    let answer = await run();
    expect(answer.events.at(-1)?.type).toBe("error");
    expect(answer.message).toMatchObject({ stopReason: "error", errorMessage: "upstream overloaded" });

    server.enqueue({ status: 402, json: { error: { message: "Out of credits", code: "insufficient_credits" } } });
    answer = await run();
    expect(answer.events.map((e) => e.type)).toEqual(["error"]);
    expect(answer.message.errorMessage).toMatch(/^402 .*Out of credits \(insufficient_credits\)$/);

    server.enqueue({
      sse: [data({ type: "text_start", contentIndex: 0 }), data({ type: "text_delta", contentIndex: 0, delta: "Hi" })],
    });
    answer = await run();
    expect(answer.message).toMatchObject({
      stopReason: "error",
      errorMessage: "radius stream ended without a terminal event",
    });

    server.enqueue({ sse: [data({ type: "text_delta", contentIndex: 5, delta: "x" })] });
    answer = await run();
    expect(answer.message.errorMessage).toBe("Invalid contentIndex 5 in pi-messages text_delta event");
  });
});
