/**
 * Acceptance 2 for the "openai-responses" slot: the request bodies the SDK actually sent to the mock
 * server. Function tools, reasoning options with encrypted content, developer vs system role,
 * max_output_tokens, function_call / function_call_output items, images, prompt_cache_key, and the
 * encrypted reasoning item replayed verbatim on the next request to the same model.
 */
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessage, Context, Model, StreamOptions } from "../../../contracts/ai/index.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { textStream } from "../../fixtures/sse/openai-responses/text.js";
import { reasoningItem, reasoningToolStream, toolCall } from "../../fixtures/sse/openai-responses/reasoning-text.js";
import { ask, bootProvider, responsesModel, runStream, type BootedProvider } from "./harness.js";

let server: MockLlmServer;
let booted: BootedProvider;

beforeEach(async () => {
  server = await new MockLlmServer().start();
  booted = await bootProvider("openai-responses");
});

afterEach(async () => {
  await booted.kernel.shutdown();
  await server.close();
});

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Sends one request with a text answer scripted and returns the body the server received. */
async function sentBody(model: Model, context: Context, options: StreamOptions = {}): Promise<Record<string, any>> {
  server.enqueue({ sse: textStream });
  const run = await runStream(booted.handle, model, context, options);
  expect(run.message.stopReason).toBe("stop");
  return server.requests.at(-1)!.body as Record<string, any>;
}

function assistant(
  model: Pick<Model, "api" | "provider" | "id">,
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "toolUse",
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason,
    timestamp: 2,
  };
}

const readTool = {
  name: "read",
  description: "Read a file",
  parameters: Type.Object({ path: Type.String({ description: "File path" }) }),
};

describe("openai-responses request body", () => {
  it("sends function tools, reasoning with summaries and encrypted content, store:false and the session's prompt_cache_key", async () => {
    const body = await sentBody(
      responsesModel(server.url),
      { ...ask("hi", "You are terse."), tools: [readTool] },
      { reasoning: "high", sessionId: "session-42", maxTokens: 2048 },
    );
    expect(body).toEqual({
      model: "gpt-5-mini",
      input: [
        { role: "developer", content: "You are terse." },
        { role: "user", content: [{ type: "input_text", text: "hi" }] },
      ],
      stream: true,
      store: false,
      prompt_cache_key: "session-42",
      max_output_tokens: 2048,
      tools: [
        {
          type: "function",
          name: "read",
          description: "Read a file",
          parameters: {
            type: "object",
            properties: { path: { type: "string", description: "File path" } },
            required: ["path"],
          },
          strict: false,
        },
      ],
      reasoning: { effort: "high", summary: "auto" },
      include: ["reasoning.encrypted_content"],
    });
    const headers = server.requests.at(-1)!.headers;
    expect(headers.session_id).toBe("session-42");
  });

  it("sends `system` and no reasoning options to a model that does not reason", async () => {
    const body = await sentBody(
      responsesModel(server.url, { id: "gpt-4.1", reasoning: false }),
      ask("hi", "Be brief."),
      { reasoning: "high", sessionId: "s", cacheRetention: "none" },
    );
    expect(body.input[0]).toEqual({ role: "system", content: "Be brief." });
    expect(body.reasoning).toBeUndefined();
    expect(body.include).toBeUndefined();
    expect(body.prompt_cache_key).toBeUndefined();
    expect(body.max_output_tokens).toBe(32_000);
  });

  it("leaves the effort to the model when thinking is off, but still asks for encrypted reasoning", async () => {
    const body = await sentBody(responsesModel(server.url), ask("hi"), { reasoning: "off" });
    expect(body.reasoning).toBeUndefined();
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
  });

  it("sends images as input_image data URLs, in user messages and in tool outputs", async () => {
    const model = responsesModel(server.url);
    const context: Context = {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", data: PNG, mimeType: "image/png" },
          ],
          timestamp: 1,
        },
        assistant(model, [{ type: "toolCall", id: "call_1|fc_1", name: "screenshot", arguments: {} }]),
        {
          role: "toolResult",
          toolCallId: "call_1|fc_1",
          toolName: "screenshot",
          content: [
            { type: "text", text: "here" },
            { type: "image", data: PNG, mimeType: "image/png" },
          ],
          isError: false,
          timestamp: 3,
        },
      ],
    };
    const body = await sentBody(model, context);
    expect(body.input[0]).toEqual({
      role: "user",
      content: [
        { type: "input_text", text: "What is this?" },
        { type: "input_image", detail: "auto", image_url: `data:image/png;base64,${PNG}` },
      ],
    });
    expect(body.input[2]).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: "here" },
        { type: "input_image", detail: "auto", image_url: `data:image/png;base64,${PNG}` },
      ],
    });
  });

  it("replays the encrypted reasoning item verbatim, then the function_call and its function_call_output", async () => {
    const model = responsesModel(server.url);
    server.enqueue({ sse: reasoningToolStream });
    const first = await runStream(
      booted.handle,
      model,
      { ...ask("read notes"), tools: [readTool] },
      { reasoning: "high" },
    );
    expect(first.message.stopReason).toBe("toolUse");
    const callId = `${toolCall.callId}|${toolCall.itemId}`;
    expect(first.message.content[1]).toEqual({
      type: "toolCall",
      id: callId,
      name: "read",
      arguments: { path: "notes.md" },
    });

    const body = await sentBody(
      model,
      {
        tools: [readTool],
        messages: [
          ...ask("read notes").messages,
          first.message,
          {
            role: "toolResult",
            toolCallId: callId,
            toolName: "read",
            content: [{ type: "text", text: "# Notes" }],
            isError: false,
            timestamp: 9,
          },
        ],
      },
      { reasoning: "high" },
    );
    expect(body.input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "read notes" }] },
      reasoningItem,
      {
        type: "function_call",
        call_id: toolCall.callId,
        name: "read",
        arguments: '{"path":"notes.md"}',
        id: toolCall.itemId,
      },
      { type: "function_call_output", call_id: toolCall.callId, output: "# Notes" },
    ]);
    expect(body.input[1].encrypted_content).toBe(
      reasoningItem.type === "reasoning" ? reasoningItem.encrypted_content : undefined,
    );
  });

  it("replays this model's text as a message item with its id, another model's as a plain assistant message", async () => {
    const model = responsesModel(server.url);
    const own = assistant(model, [{ type: "text", text: "Mine.", textSignature: "msg_abc123" }], "stop");
    const piShaped = assistant(
      model,
      [{ type: "text", text: "Pi's.", textSignature: '{"v":1,"id":"msg_def456","phase":"final_answer"}' }],
      "stop",
    );
    const other = assistant(
      { api: "anthropic-messages", provider: "anthropic", id: "claude-sonnet-4" },
      [{ type: "text", text: "Theirs." }],
      "stop",
    );
    const body = await sentBody(model, {
      messages: [
        ...ask("a").messages,
        own,
        { role: "user", content: "b", timestamp: 3 },
        piShaped,
        { role: "user", content: "c", timestamp: 5 },
        other,
        { role: "user", content: "d", timestamp: 7 },
      ],
    });
    expect(body.input[1]).toEqual({
      type: "message",
      role: "assistant",
      id: "msg_abc123",
      status: "completed",
      content: [{ type: "output_text", text: "Mine.", annotations: [] }],
    });
    expect(body.input[3]).toEqual({
      type: "message",
      role: "assistant",
      id: "msg_def456",
      status: "completed",
      phase: "final_answer",
      content: [{ type: "output_text", text: "Pi's.", annotations: [] }],
    });
    expect(body.input[5]).toEqual({ role: "assistant", content: "Theirs." });
  });

  it("does not replay reasoning to a different model: it sees the summary as text and calls without item ids", async () => {
    const model = responsesModel(server.url);
    server.enqueue({ sse: reasoningToolStream });
    const first = await runStream(booted.handle, model, ask("read notes"), { reasoning: "high" });
    const callId = `${toolCall.callId}|${toolCall.itemId}`;
    const sibling = responsesModel(server.url, { id: "gpt-5" });
    const body = await sentBody(sibling, {
      messages: [
        ...ask("read notes").messages,
        first.message,
        {
          role: "toolResult",
          toolCallId: callId,
          toolName: "read",
          content: [{ type: "text", text: "# Notes" }],
          isError: false,
          timestamp: 9,
        },
      ],
    });
    expect(body.input.some((item: { type?: string }) => item.type === "reasoning")).toBe(false);
    expect(body.input[1]).toEqual({
      role: "assistant",
      content: "**Adding numbers**\n\nThe user wants 2+2.\n\n**Answering**\n\nIt is 4.",
    });
    expect(body.input[2]).toEqual({
      type: "function_call",
      call_id: toolCall.callId,
      name: "read",
      arguments: '{"path":"notes.md"}',
    });
    expect(body.input[3]).toEqual({ type: "function_call_output", call_id: toolCall.callId, output: "# Notes" });
  });

  it("normalizes foreign tool-call ids to a valid call_id and an fc_-prefixed item id, results following", async () => {
    const model = responsesModel(server.url);
    const anthropicId = "toolu_01A09q90qw90lq917835lq9";
    const completionsId = "call with spaces/and+symbols";
    const context: Context = {
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        assistant({ api: "anthropic-messages", provider: "anthropic", id: "claude-sonnet-4" }, [
          { type: "toolCall", id: anthropicId, name: "read", arguments: { path: "a" } },
          { type: "toolCall", id: completionsId, name: "read", arguments: { path: "b" } },
        ]),
        {
          role: "toolResult",
          toolCallId: anthropicId,
          toolName: "read",
          content: [{ type: "text", text: "A" }],
          isError: false,
          timestamp: 3,
        },
        {
          role: "toolResult",
          toolCallId: completionsId,
          toolName: "read",
          content: [{ type: "text", text: "B" }],
          isError: false,
          timestamp: 4,
        },
      ],
    };
    const body = await sentBody(model, context);
    const [first, second, firstOutput, secondOutput] = body.input.slice(1);
    expect(first.call_id).toBe(anthropicId);
    expect(first.id).toMatch(/^fc_[a-z0-9]+$/);
    expect(second.call_id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(second.id).toMatch(/^fc_[a-z0-9]+$/);
    expect(second.id).not.toBe(first.id);
    expect(firstOutput).toEqual({ type: "function_call_output", call_id: first.call_id, output: "A" });
    expect(secondOutput).toEqual({ type: "function_call_output", call_id: second.call_id, output: "B" });
  });

  it("lets onPayload replace the body before it is sent", async () => {
    const body = await sentBody(responsesModel(server.url), ask("hi"), {
      onPayload: (payload) => ({ ...(payload as object), service_tier: "flex" }),
    });
    expect(body.service_tier).toBe("flex");
  });
});
