/**
 * Acceptance 2: what provider-anthropic sends. The mock server records each request the real SDK made,
 * so these tests read the exact JSON body and headers: tools as JSON Schema, the three cache breakpoints,
 * thinking per level, tool results inside a user message, images as base64, tool-call ids, thinking
 * replay, and the auth and version headers.
 */
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type {
  AiProvider,
  AssistantMessage,
  Context,
  Message,
  Model,
  StreamOptions,
  ToolResultMessage,
} from "../../../contracts/ai/index.js";
import type { Handle, Kernel } from "../../../kernel/index.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { TEXT_ANSWER } from "../../fixtures/sse/anthropic-messages/text.js";
import { bootAnthropic, claudeModel, collect, FAST_RETRY, user } from "./helpers.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const READ_TOOL = {
  name: "read",
  description: "Read a file",
  parameters: Type.Object({
    path: Type.String({ description: "File to read" }),
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
  }),
};
const BASH_TOOL = {
  name: "bash",
  description: "Run a shell command",
  parameters: Type.Object({ command: Type.String(), timeout: Type.Optional(Type.Number()) }),
};

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

/** Streams one answer and returns the request the server recorded. */
async function send(context: Context, options: StreamOptions = {}, model: Model = claudeModel(server.url)) {
  server.enqueue({ sse: TEXT_ANSWER });
  const { result } = await collect(
    provider.call("stream", model, context, { apiKey: "sk-ant-test", retry: FAST_RETRY, ...options }),
  );
  expect(result.errorMessage).toBeUndefined();
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

/** Every cache_control object anywhere in the body. */
function cacheBreakpoints(body: unknown): unknown[] {
  const found: unknown[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        if (key === "cache_control") found.push(child);
        else walk(child);
      }
    }
  };
  walk(body);
  return found;
}

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "toolUse",
    timestamp: 2,
    ...from,
  };
}

function toolResult(toolCallId: string, content: ToolResultMessage["content"], isError = false): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName: "read", content, isError, timestamp: 3 };
}

describe("provider-anthropic: request body", () => {
  it("sends model, max_tokens, stream, the system prompt as a block, and the user message", async () => {
    const { body, method, path } = await send(
      { systemPrompt: "You are terse.", messages: [user("Say hello")] },
      {},
      claudeModel(server.url, { reasoning: false }),
    );

    expect(method).toBe("POST");
    expect(path).toBe("/v1/messages");
    expect(body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 32_000,
      stream: true,
      system: [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "Say hello", cache_control: { type: "ephemeral" } }] },
      ],
    });
  });

  it("declares tools with their TypeBox parameters as JSON Schema input_schema", async () => {
    const { body } = await send(
      { messages: [user("list files")], tools: [READ_TOOL, BASH_TOOL] },
      { cacheRetention: "none" },
    );

    expect(body.tools).toEqual([
      {
        name: "read",
        description: "Read a file",
        input_schema: {
          type: "object",
          properties: { path: { type: "string", description: "File to read" }, limit: { type: "integer", minimum: 1 } },
          required: ["path"],
        },
      },
      {
        name: "bash",
        description: "Run a shell command",
        input_schema: {
          type: "object",
          properties: { command: { type: "string" }, timeout: { type: "number" } },
          required: ["command"],
        },
      },
    ]);
  });

  it("puts exactly three cache breakpoints: system prompt, last tool, last user message's last block", async () => {
    const context: Context = {
      systemPrompt: "You are a coding agent.",
      tools: [READ_TOOL, BASH_TOOL],
      messages: [
        user("first question"),
        assistant([{ type: "text", text: "first answer" }], { stopReason: "stop" }),
        {
          role: "user",
          content: [
            { type: "text", text: "look at this" },
            { type: "image", data: PNG, mimeType: "image/png" },
          ],
          timestamp: 4,
        },
      ],
    };
    const { body } = await send(context);

    expect(cacheBreakpoints(body)).toEqual([{ type: "ephemeral" }, { type: "ephemeral" }, { type: "ephemeral" }]);
    expect(body.system[0].cache_control).toEqual({ type: "ephemeral" });
    expect(body.tools[0].cache_control).toBeUndefined();
    expect(body.tools[1].cache_control).toEqual({ type: "ephemeral" });
    expect(body.messages[0].content[0].cache_control).toBeUndefined();
    expect(body.messages[2].content[0].cache_control).toBeUndefined();
    expect(body.messages[2].content[1]).toMatchObject({ type: "image", cache_control: { type: "ephemeral" } });
  });

  it('uses ttl "1h" for cacheRetention "long", and no breakpoints at all for "none"', async () => {
    const context: Context = { systemPrompt: "sys", tools: [READ_TOOL], messages: [user("hi")] };
    const long = await send(context, { cacheRetention: "long" });
    expect(cacheBreakpoints(long.body)).toEqual([
      { type: "ephemeral", ttl: "1h" },
      { type: "ephemeral", ttl: "1h" },
      { type: "ephemeral", ttl: "1h" },
    ]);

    server.requests.length = 0;
    const none = await send(context, { cacheRetention: "none" });
    expect(cacheBreakpoints(none.body)).toEqual([]);

    server.requests.length = 0;
    const noLongCache = await send(
      context,
      { cacheRetention: "long" },
      claudeModel(server.url, { compat: { supportsLongCacheRetention: false } }),
    );
    expect(cacheBreakpoints(noLongCache.body)).toEqual([
      { type: "ephemeral" },
      { type: "ephemeral" },
      { type: "ephemeral" },
    ]);
  });

  it.each([
    ["minimal", 1024, 33_024],
    ["low", 2048, 34_048],
    ["medium", 8192, 40_192],
    ["high", 16_384, 48_384],
    ["xhigh", 16_384, 48_384],
  ] as const)("thinking level %s: budget_tokens %i, max_tokens raised to %i", async (level, budget, maxTokens) => {
    const { body } = await send({ messages: [user("think")] }, { reasoning: level });

    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: budget });
    expect(body.max_tokens).toBe(maxTokens);
  });

  it("thinking budgets: user overrides win, xhigh follows high, max_tokens is capped at model.maxTokens", async () => {
    const overridden = await send(
      { messages: [user("think")] },
      { reasoning: "medium", thinkingBudgets: { medium: 5000 }, maxTokens: 4000 },
    );
    expect(overridden.body.thinking).toEqual({ type: "enabled", budget_tokens: 5000 });
    expect(overridden.body.max_tokens).toBe(9000);

    server.requests.length = 0;
    const xhigh = await send(
      { messages: [user("think")] },
      { reasoning: "xhigh", thinkingBudgets: { high: 20_000 }, maxTokens: 1000 },
    );
    expect(xhigh.body.thinking).toEqual({ type: "enabled", budget_tokens: 20_000 });
    expect(xhigh.body.max_tokens).toBe(21_000);

    server.requests.length = 0;
    const capped = await send(
      { messages: [user("think")] },
      { reasoning: "high" },
      claudeModel(server.url, { maxTokens: 8192 }),
    );
    expect(capped.body.max_tokens).toBe(8192);
    expect(capped.body.thinking).toEqual({ type: "enabled", budget_tokens: 8192 - 1024 });
  });

  it('level "off" on a reasoning model disables thinking; a non-reasoning model gets no thinking field', async () => {
    const off = await send({ messages: [user("hi")] }, { reasoning: "off" });
    expect(off.body.thinking).toEqual({ type: "disabled" });
    expect(off.body.max_tokens).toBe(32_000);

    server.requests.length = 0;
    const plain = await send(
      { messages: [user("hi")] },
      { reasoning: "high" },
      claudeModel(server.url, { reasoning: false, maxTokens: 8192 }),
    );
    expect(plain.body).not.toHaveProperty("thinking");
    expect(plain.body.max_tokens).toBe(8192);

    server.requests.length = 0;
    const tooSmall = await send(
      { messages: [user("hi")] },
      { reasoning: "minimal" },
      claudeModel(server.url, { maxTokens: 1500 }),
    );
    expect(tooSmall.body.thinking).toEqual({ type: "disabled" });
    expect(tooSmall.body.max_tokens).toBe(1500);
  });

  it("adaptive-thinking models (Opus 4.6/4.7, Sonnet 4.6) get an effort instead of a budget", async () => {
    const opus = claudeModel(server.url, { id: "claude-opus-4-7" });
    const high = await send({ messages: [user("think")] }, { reasoning: "high" }, opus);
    expect(high.body.thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect(high.body.output_config).toEqual({ effort: "high" });
    expect(high.body.max_tokens).toBe(32_000);

    server.requests.length = 0;
    const minimal = await send(
      { messages: [user("think")] },
      { reasoning: "minimal" },
      claudeModel(server.url, { id: "claude-sonnet-4-6-20260101" }),
    );
    expect(minimal.body.thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect(minimal.body.output_config).toEqual({ effort: "low" });

    server.requests.length = 0;
    const off = await send({ messages: [user("hi")] }, { reasoning: "off" }, opus);
    expect(off.body.thinking).toEqual({ type: "disabled" });
    expect(off.body).not.toHaveProperty("output_config");
  });

  it("places consecutive tool results in one user message as tool_result blocks, with is_error and images", async () => {
    const messages: Message[] = [
      user("read both"),
      assistant([
        { type: "toolCall", id: "toolu_01A", name: "read", arguments: { path: "a.txt" } },
        { type: "toolCall", id: "toolu_01B", name: "read", arguments: { path: "b.png" } },
      ]),
      toolResult("toolu_01A", [{ type: "text", text: "contents of a" }]),
      toolResult(
        "toolu_01B",
        [
          { type: "text", text: "could not decode fully" },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
        true,
      ),
    ];
    const { body } = await send({ messages });

    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "read both" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_01A", name: "read", input: { path: "a.txt" } },
          { type: "tool_use", id: "toolu_01B", name: "read", input: { path: "b.png" } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_01A",
            content: [{ type: "text", text: "contents of a" }],
            is_error: false,
          },
          {
            type: "tool_result",
            tool_use_id: "toolu_01B",
            content: [
              { type: "text", text: "could not decode fully" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            ],
            is_error: true,
            cache_control: { type: "ephemeral" },
          },
        ],
      },
    ]);
  });

  it("sends user images as base64 source blocks", async () => {
    const { body } = await send(
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is this?" },
              { type: "image", data: PNG, mimeType: "image/jpeg" },
            ],
            timestamp: 1,
          },
        ],
      },
      { cacheRetention: "none" },
    );

    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image", source: { type: "base64", media_type: "image/jpeg", data: PNG } },
        ],
      },
    ]);
  });

  it("rewrites tool-call ids from other providers to ^[a-zA-Z0-9_-]{1,64}$, and their results follow", async () => {
    const foreignId = "call_9f8e7d|fc_0123456789abcdef0123456789abcdef0123456789abcdef0123456789+/=";
    const messages: Message[] = [
      user("run it"),
      assistant([{ type: "toolCall", id: foreignId, name: "bash", arguments: { command: "ls" } }], {
        api: "openai-responses",
        provider: "openai",
        model: "gpt-5",
      }),
      toolResult(foreignId, [{ type: "text", text: "a.txt" }]),
    ];
    const { body } = await send({ messages }, { cacheRetention: "none" });

    const toolUseId = body.messages[1].content[0].id as string;
    expect(toolUseId).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(toolUseId).not.toBe(foreignId);
    expect(body.messages[2].content[0].tool_use_id).toBe(toolUseId);
  });

  it("replays same-model thinking with its signature and redacted thinking as redacted_thinking", async () => {
    const messages: Message[] = [
      user("think"),
      assistant(
        [
          { type: "thinking", thinking: "Let me think.", thinkingSignature: "sig-abc" },
          { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "opaque-data", redacted: true },
          { type: "text", text: "Done thinking." },
        ],
        { stopReason: "stop" },
      ),
      user("again"),
    ];
    const { body } = await send({ messages }, { reasoning: "low", cacheRetention: "none" });

    expect(body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Let me think.", signature: "sig-abc" },
        { type: "redacted_thinking", data: "opaque-data" },
        { type: "text", text: "Done thinking." },
      ],
    });
  });

  it("turns another model's thinking into text and drops its redacted thinking", async () => {
    const messages: Message[] = [
      user("think"),
      assistant(
        [
          { type: "thinking", thinking: "Other model's thoughts.", thinkingSignature: "sig-other" },
          { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "opaque", redacted: true },
          { type: "text", text: "Answer." },
        ],
        { model: "claude-opus-4-1", stopReason: "stop" },
      ),
      user("again"),
    ];
    const { body } = await send({ messages }, { cacheRetention: "none" });

    expect(body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Other model's thoughts." },
        { type: "text", text: "Answer." },
      ],
    });
  });

  it("lets onPayload replace the body just before it is sent", async () => {
    const { body } = await send(
      { messages: [user("hi")] },
      { onPayload: (payload) => ({ ...(payload as object), metadata: { user_id: "u-1" } }) },
    );

    expect(body.metadata).toEqual({ user_id: "u-1" });
    expect(body.model).toBe("claude-sonnet-4-5");
  });

  it("a tool whose parameters are not an object schema: one-line error event, nothing sent", async () => {
    const badTool = { name: "weird", description: "not an object", parameters: Type.String() };
    const { types, result } = await collect(
      provider.call(
        "stream",
        claudeModel(server.url),
        { messages: [user("hi")], tools: [badTool] },
        { apiKey: "sk-ant-test" },
      ),
    );

    expect(types).toEqual(["error"]);
    expect(result.errorMessage).toBe(
      'tool "weird": parameters must be a JSON Schema object (type "object"), got "string"',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("provider-anthropic: request headers", () => {
  it("sends the key as x-api-key (no Authorization), an anthropic-version, and model + caller headers", async () => {
    const model = claudeModel(server.url, { headers: { "x-model-header": "from-model" } });
    const { headers } = await send(
      { messages: [user("hi")] },
      { headers: { "x-caller-header": "from-caller" } },
      model,
    );

    expect(headers["x-api-key"]).toBe("sk-ant-test");
    expect(headers.authorization).toBeUndefined();
    expect(headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["x-model-header"]).toBe("from-model");
    expect(headers["x-caller-header"]).toBe("from-caller");
  });

  it("uses ANTHROPIC_API_KEY for the anthropic provider when no key is passed", async () => {
    const previous = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = "sk-ant-from-env";
    try {
      server.enqueue({ sse: TEXT_ANSWER });
      const { result } = await collect(
        provider.call("stream", claudeModel(server.url), { messages: [user("hi")] }, { retry: FAST_RETRY }),
      );
      expect(result.stopReason).toBe("stop");
      expect(server.requests[0]!.headers["x-api-key"]).toBe("sk-ant-from-env");
    } finally {
      if (previous === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = previous;
    }
  });
});
