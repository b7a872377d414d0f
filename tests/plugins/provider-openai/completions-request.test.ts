/**
 * Acceptance 2 for the "openai-completions" slot: the request bodies the SDK actually sent to the mock
 * server. Tools, reasoning options per dialect, developer vs system role, the max-tokens field, tool
 * results as `tool` messages, images, prompt_cache_key, and history handed over from other models.
 */
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessage, Context, Model, StreamOptions } from "../../../contracts/ai/index.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { textStream } from "../../fixtures/sse/openai-completions/text.js";
import {
  openRouterReasoningStream,
  encryptedDetail,
} from "../../fixtures/sse/openai-completions/openrouter-reasoning.js";
import { thinkingTextStream } from "../../fixtures/sse/openai-completions/thinking-text.js";
import { ask, bootProvider, completionsModel, runStream, type BootedProvider } from "./harness.js";

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
  parameters: Type.Object({
    path: Type.String({ description: "File path" }),
    offset: Type.Optional(Type.Integer({ minimum: 1 })),
  }),
};

describe("openai-completions request body", () => {
  it("streams with usage, sends tools as JSON Schema function tools, and keys the prompt cache by session on OpenAI", async () => {
    const body = await sentBody(
      completionsModel(server.url),
      { ...ask("hi", "You are terse."), tools: [readTool] },
      { sessionId: "session-42", temperature: 0.2 },
    );
    expect(body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "hi" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      store: false,
      max_completion_tokens: 16_384,
      temperature: 0.2,
      tools: [
        {
          type: "function",
          function: {
            name: "read",
            description: "Read a file",
            parameters: {
              type: "object",
              properties: {
                path: { type: "string", description: "File path" },
                offset: { type: "integer", minimum: 1 },
              },
              required: ["path"],
            },
            strict: false,
          },
        },
      ],
      prompt_cache_key: "session-42",
    });
  });

  it("sends a lone surrogate as U+FFFD and leaves well-formed text, emoji included, as it is", async () => {
    const body = await sentBody(completionsModel(server.url), ask("cut \uD83D here, whole \uD83D\uDE00, stray \uDE00"));
    expect(body.messages.at(-1)).toEqual({
      role: "user",
      content: "cut \uFFFD here, whole \uD83D\uDE00, stray \uFFFD",
    });
  });

  it("leaves prompt_cache_key out for other servers and when caching is off", async () => {
    const local = completionsModel(server.url, { provider: "ollama", id: "qwen3:8b" });
    expect((await sentBody(local, ask("hi"), { sessionId: "s" })).prompt_cache_key).toBeUndefined();
    expect(
      (await sentBody(completionsModel(server.url), ask("hi"), { sessionId: "s", cacheRetention: "none" }))
        .prompt_cache_key,
    ).toBeUndefined();
  });

  it("omits stream_options when the server cannot stream usage", async () => {
    const body = await sentBody(
      completionsModel(server.url, { provider: "some-proxy", compat: { supportsUsageInStreaming: false } }),
      ask("hi"),
    );
    expect(body.stream_options).toBeUndefined();
  });

  it("sends the system prompt as `developer` to OpenAI reasoning models, as `system` otherwise", async () => {
    const o4 = completionsModel(server.url, { id: "o4-mini", reasoning: true });
    expect((await sentBody(o4, ask("hi", "Be brief."))).messages[0]).toEqual({
      role: "developer",
      content: "Be brief.",
    });
    expect((await sentBody(completionsModel(server.url), ask("hi", "Be brief."))).messages[0]).toEqual({
      role: "system",
      content: "Be brief.",
    });
    const localReasoner = completionsModel(server.url, { provider: "ollama", id: "gpt-oss:20b", reasoning: true });
    expect((await sentBody(localReasoner, ask("hi", "Be brief."))).messages[0]).toEqual({
      role: "system",
      content: "Be brief.",
    });
    const overridden = completionsModel(server.url, {
      id: "o4-mini",
      reasoning: true,
      compat: { supportsDeveloperRole: false },
    });
    expect((await sentBody(overridden, ask("hi", "Be brief."))).messages[0]).toEqual({
      role: "system",
      content: "Be brief.",
    });
  });

  it("uses the max-tokens field the server expects, and compat.maxTokensField overrides it", async () => {
    expect(await sentBody(completionsModel(server.url), ask("hi"), { maxTokens: 500 })).toMatchObject({
      max_completion_tokens: 500,
    });
    const ollama = await sentBody(completionsModel(server.url, { provider: "ollama", id: "llama3.1:8b" }), ask("hi"), {
      maxTokens: 500,
    });
    expect(ollama.max_tokens).toBe(500);
    expect(ollama.max_completion_tokens).toBeUndefined();
    const forced = await sentBody(
      completionsModel(server.url, { compat: { maxTokensField: "max_tokens" } }),
      ask("hi"),
      { maxTokens: 500 },
    );
    expect(forced.max_tokens).toBe(500);
    expect(forced.max_completion_tokens).toBeUndefined();
    const groq = await sentBody(
      completionsModel(server.url, { provider: "groq", id: "openai/gpt-oss-120b" }),
      ask("hi"),
      { maxTokens: 500 },
    );
    expect(groq.max_completion_tokens).toBe(500);
  });

  it("asks for reasoning in each server's dialect", async () => {
    const o4 = completionsModel(server.url, { id: "o4-mini", reasoning: true });
    expect((await sentBody(o4, ask("hi"), { reasoning: "high" })).reasoning_effort).toBe("high");
    expect((await sentBody(o4, ask("hi"), { reasoning: "off" })).reasoning_effort).toBeUndefined();
    const nonReasoning = await sentBody(completionsModel(server.url), ask("hi"), { reasoning: "high" });
    expect(nonReasoning.reasoning_effort).toBeUndefined();

    const openrouter = completionsModel(server.url, {
      provider: "openrouter",
      id: "anthropic/claude-sonnet-4",
      reasoning: true,
    });
    expect((await sentBody(openrouter, ask("hi"), { reasoning: "medium" })).reasoning).toEqual({ effort: "medium" });
    expect((await sentBody(openrouter, ask("hi"), { reasoning: "off" })).reasoning).toEqual({ effort: "none" });

    const deepseek = completionsModel(server.url, { provider: "deepseek", id: "deepseek-reasoner", reasoning: true });
    expect(await sentBody(deepseek, ask("hi"), { reasoning: "high" })).toMatchObject({
      thinking: { type: "enabled" },
      reasoning_effort: "high",
    });
    const deepseekOff = await sentBody(deepseek, ask("hi"));
    expect(deepseekOff.thinking).toEqual({ type: "disabled" });
    expect(deepseekOff.reasoning_effort).toBeUndefined();

    const zai = completionsModel(server.url, { provider: "zai", id: "glm-4.6", reasoning: true });
    expect((await sentBody(zai, ask("hi"), { reasoning: "low" })).enable_thinking).toBe(true);
    const qwen = completionsModel(server.url, {
      provider: "vllm",
      id: "Qwen/Qwen3-32B",
      reasoning: true,
      compat: { thinkingFormat: "qwen-chat-template" },
    });
    expect((await sentBody(qwen, ask("hi"))).chat_template_kwargs).toEqual({
      enable_thinking: false,
      preserve_thinking: true,
    });

    const grok = completionsModel(server.url, { provider: "xai", id: "grok-4", reasoning: true });
    expect((await sentBody(grok, ask("hi"), { reasoning: "high" })).reasoning_effort).toBeUndefined();
  });

  it("sends images as image_url data URLs", async () => {
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
      ],
    };
    const body = await sentBody(completionsModel(server.url), context);
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it("places tool calls on the assistant message and each result in a `tool` message; tool images follow in a user message", async () => {
    const model = completionsModel(server.url);
    const context: Context = {
      tools: [readTool],
      messages: [
        { role: "user", content: "read both", timestamp: 1 },
        assistant(model, [
          { type: "text", text: "Reading." },
          { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } },
          { type: "toolCall", id: "call_2", name: "read", arguments: { path: "b.png" } },
        ]),
        {
          role: "toolResult",
          toolCallId: "call_1",
          toolName: "read",
          content: [{ type: "text", text: "alpha" }],
          isError: false,
          timestamp: 3,
        },
        {
          role: "toolResult",
          toolCallId: "call_2",
          toolName: "read",
          content: [{ type: "image", data: PNG, mimeType: "image/png" }],
          isError: false,
          timestamp: 4,
        },
      ],
    };
    const body = await sentBody(model, context);
    expect(body.messages).toEqual([
      { role: "user", content: "read both" },
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } },
          { id: "call_2", type: "function", function: { name: "read", arguments: '{"path":"b.png"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "alpha" },
      { role: "tool", tool_call_id: "call_2", content: "(see attached image)" },
      {
        role: "user",
        content: [
          { type: "text", text: "Attached image(s) from tool result:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it("adds the tool name to tool messages and bridges tool results to a user turn when the server requires it", async () => {
    const model = completionsModel(server.url, {
      provider: "mistral",
      id: "mistral-large-latest",
      compat: { requiresToolResultName: true, requiresAssistantAfterToolResult: true },
    });
    const context: Context = {
      messages: [
        { role: "user", content: "list", timestamp: 1 },
        assistant(model, [{ type: "toolCall", id: "abcDEF123", name: "ls", arguments: {} }]),
        {
          role: "toolResult",
          toolCallId: "abcDEF123",
          toolName: "ls",
          content: [{ type: "text", text: "a b" }],
          isError: false,
          timestamp: 3,
        },
        { role: "user", content: "thanks", timestamp: 4 },
      ],
    };
    const body = await sentBody(model, context);
    expect(body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "abcDEF123", type: "function", function: { name: "ls", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "abcDEF123", content: "a b", name: "ls" },
      { role: "assistant", content: "I have processed the tool results." },
      { role: "user", content: "thanks" },
    ]);
  });

  it("rewrites tool-call ids from other APIs to at most 40 chars of [a-zA-Z0-9_-], results following", async () => {
    const model = completionsModel(server.url);
    const responsesId = "call_Kx8vN2mQ4rT6yW9zB1dF3hJ5|fc_68a1c1b2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60";
    const oddId = "tool:call/with+odd=chars-and-a-length-well-beyond-forty-characters";
    const foreign = assistant({ api: "openai-responses", provider: "openai", id: "gpt-5" }, [
      { type: "toolCall", id: responsesId, name: "read", arguments: { path: "a" } },
      { type: "toolCall", id: oddId, name: "read", arguments: { path: "b" } },
    ]);
    const context: Context = {
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        foreign,
        {
          role: "toolResult",
          toolCallId: responsesId,
          toolName: "read",
          content: [{ type: "text", text: "A" }],
          isError: false,
          timestamp: 3,
        },
        {
          role: "toolResult",
          toolCallId: oddId,
          toolName: "read",
          content: [{ type: "text", text: "B" }],
          isError: false,
          timestamp: 4,
        },
      ],
    };
    const body = await sentBody(model, context);
    const ids = (body.messages[1].tool_calls as Array<{ id: string }>).map((c) => c.id);
    expect(ids[0]).toBe("call_Kx8vN2mQ4rT6yW9zB1dF3hJ5");
    expect(ids[1]).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(ids[1]).not.toBe(oddId);
    expect(body.messages[2]).toEqual({ role: "tool", tool_call_id: ids[0], content: "A" });
    expect(body.messages[3]).toEqual({ role: "tool", tool_call_id: ids[1], content: "B" });
  });

  it("replays this model's reasoning in the field it came from, and OpenRouter's encrypted reasoning with its tool call", async () => {
    const deepseek = completionsModel(server.url, { provider: "deepseek", id: "deepseek-reasoner", reasoning: true });
    server.enqueue({ sse: thinkingTextStream });
    const first = await runStream(booted.handle, deepseek, ask("2+2?"), { reasoning: "high" });
    const replay = await sentBody(
      deepseek,
      { messages: [...ask("2+2?").messages, first.message, { role: "user", content: "and 3+3?", timestamp: 5 }] },
      { reasoning: "high" },
    );
    expect(replay.messages[1]).toEqual({
      role: "assistant",
      content: "2 + 2 = 4.",
      reasoning_content: "The user asks for 2+2. That is 4.",
    });

    const openrouter = completionsModel(server.url, { provider: "openrouter", id: "openai/o4-mini", reasoning: true });
    server.enqueue({ sse: openRouterReasoningStream });
    const withTool = await runStream(booted.handle, openrouter, ask("read a.txt"), { reasoning: "medium" });
    const call = withTool.message.content[1] as { id: string };
    const next = await sentBody(openrouter, {
      messages: [
        ...ask("read a.txt").messages,
        withTool.message,
        {
          role: "toolResult",
          toolCallId: call.id,
          toolName: "read",
          content: [{ type: "text", text: "hello" }],
          isError: false,
          timestamp: 6,
        },
      ],
    });
    expect(next.messages[1]).toEqual({
      role: "assistant",
      content: null,
      reasoning: "Need to read the file.",
      tool_calls: [{ id: call.id, type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } }],
      reasoning_details: [encryptedDetail],
    });
  });

  it("sends another model's thinking as plain text, never in a reasoning field", async () => {
    const other = assistant(
      { api: "anthropic-messages", provider: "anthropic", id: "claude-sonnet-4" },
      [
        { type: "thinking", thinking: "Let me think.", thinkingSignature: "EqQBCkgIARABGAIiQL" },
        { type: "text", text: "Done." },
      ],
      "stop",
    );
    const body = await sentBody(completionsModel(server.url), {
      messages: [...ask("q").messages, other, { role: "user", content: "next", timestamp: 3 }],
    });
    expect(body.messages[1]).toEqual({ role: "assistant", content: "Let me think.\n\nDone." });
  });

  it("sends the model's headers and the caller's, the caller's winning", async () => {
    const model = completionsModel(server.url, { headers: { "HTTP-Referer": "https://pi.dev", "X-Title": "pi" } });
    await sentBody(model, ask("hi"), { headers: { "X-Title": "pi-host" } });
    const headers = server.requests.at(-1)!.headers;
    expect(headers["http-referer"]).toBe("https://pi.dev");
    expect(headers["x-title"]).toBe("pi-host");
  });

  it("lets onPayload replace the body before it is sent", async () => {
    const body = await sentBody(completionsModel(server.url), ask("hi"), {
      onPayload: (payload) => ({ ...(payload as object), user: "tester" }),
    });
    expect(body.user).toBe("tester");
  });
});
