/**
 * A request without an `onPayload` hook goes out with its messages converted as they are serialized
 * (JsonArrayStream inside a JsonBody), so a long history is never one string nor one converted array.
 * What the server receives must be the same body, byte for byte in meaning and with the right
 * Content-Length, as the eager path that an `onPayload` hook sees.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessage, Context, Message, Model } from "../../../contracts/ai/index.js";
import { resolveCompletionsCompat } from "../../../plugins/ai/provider-openai/completions-compat.js";
import { buildCompletionsBody } from "../../../plugins/ai/provider-openai/completions-request.js";
import { textStream } from "../../fixtures/sse/openai-completions/text.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { bootProvider, completionsModel, runStream, type BootedProvider } from "./harness.js";

let server: MockLlmServer;
let booted: BootedProvider;

beforeEach(async () => {
  server = await new MockLlmServer().start();
  booted = await bootProvider("openai-completions");
});

afterEach(async () => {
  await booted.kernel.shutdown();
  await server.close();
});

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A long history: user turns, assistant turns with two text blocks and tool calls, tool results with images. */
function longHistory(model: Model, turns: number): Message[] {
  const usage = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const messages: Message[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "user", content: `question ${i} é 😀`, timestamp: i });
    const reply: AssistantMessage = {
      role: "assistant",
      content: [
        { type: "text", text: `first part ${i}` },
        { type: "text", text: `second part ${i}` },
        { type: "toolCall", id: `call_${i}`, name: "read", arguments: { path: `f${i}.ts` } },
      ],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage,
      stopReason: "toolUse",
      timestamp: i,
    };
    messages.push(reply);
    messages.push({
      role: "toolResult",
      toolCallId: `call_${i}`,
      toolName: "read",
      content:
        i % 5 === 0
          ? [
              { type: "text", text: `contents ${i}` },
              { type: "image", data: PNG, mimeType: "image/png" },
            ]
          : [{ type: "text", text: `contents ${i}` }],
      isError: false,
      timestamp: i,
    });
  }
  messages.push({ role: "user", content: "last question", timestamp: turns });
  return messages;
}

describe("streamed Chat Completions body", () => {
  it("sends the same body as the eager path, with its byte length as Content-Length", async () => {
    const model = completionsModel(server.url);
    const context: Context = { systemPrompt: "Be brief.", messages: longHistory(model, 120) };
    const expected = JSON.parse(
      JSON.stringify(buildCompletionsBody(model, context, {}, resolveCompletionsCompat(model))),
    ) as Record<string, unknown>;
    expect((expected.messages as unknown[]).length).toBeGreaterThan(300);

    server.enqueue({ sse: textStream });
    await runStream(booted.handle, model, context);
    server.enqueue({ sse: textStream });
    await runStream(booted.handle, model, context, { onPayload: () => undefined });

    const [streamed, eager] = server.requests.slice(-2);
    expect(streamed!.body).toEqual(expected);
    expect(eager!.body).toEqual(expected);
    const bytes = Buffer.byteLength(JSON.stringify(expected), "utf8");
    expect(Number(streamed!.headers["content-length"])).toBe(bytes);
    expect(Number(eager!.headers["content-length"])).toBe(bytes);
  });
});
