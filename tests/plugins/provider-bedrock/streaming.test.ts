/**
 * provider-bedrock through the real AWS SDK against a local HTTP/2 server speaking Bedrock's binary
 * event stream: text, reasoning with its signature, a tool call streamed in pieces, usage and cost,
 * the request as Bedrock receives it (SigV4 or bearer auth, messages, tools, thinking fields), errors
 * and abort. Only the environment a user would set chooses credentials and region.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import {
  AiProviderContract,
  type AiProvider,
  type AssistantMessage,
  type AssistantMessageEvent,
  type Context,
  type Model,
  type StreamOptions,
} from "../../../contracts/ai/index.js";
import { Kernel, type Handle } from "../../../kernel/index.js";
import plugin from "../../../plugins/ai/provider-bedrock/index.js";
import { bedrockEvent, bedrockException } from "../../support/aws-event-stream.js";
import { BedrockServer } from "../../support/bedrock-server.js";

const ENV_NAMES = [
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
  "AWS_PROFILE",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
  "AWS_CONFIG_FILE",
  "AWS_SHARED_CREDENTIALS_FILE",
];
let saved: Record<string, string | undefined>;
let server: BedrockServer;
let kernel: Kernel;
let provider: Handle<AiProvider>;

beforeEach(async () => {
  saved = Object.fromEntries(ENV_NAMES.map((n) => [n, process.env[n]]));
  for (const n of ENV_NAMES) delete process.env[n];
  // No ~/.aws on the test machine counts: point the SDK's files at nothing.
  process.env.AWS_CONFIG_FILE = "/nonexistent/aws-config";
  process.env.AWS_SHARED_CREDENTIALS_FILE = "/nonexistent/aws-credentials";
  server = await new BedrockServer().start();
  kernel = new Kernel();
  const booted = await kernel.boot([
    { id: "provider-bedrock", source: { kind: "inline", label: "provider-bedrock", definition: plugin } },
  ]);
  expect(booted.errors).toEqual([]);
  provider = kernel.useAll(AiProviderContract).list()[0]!;
});

afterEach(async () => {
  await kernel.shutdown();
  await server.close();
  for (const n of ENV_NAMES) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

const MODEL_ID = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";

function claude(overrides: Partial<Model> = {}): Model {
  return {
    id: MODEL_ID,
    name: "Claude Sonnet 4.5",
    api: "bedrock-converse-stream",
    provider: "amazon-bedrock",
    baseUrl: server.url,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200_000,
    maxTokens: 64_000,
    ...overrides,
  };
}

const readTool = {
  name: "read",
  description: "Read a file",
  parameters: Type.Object({ path: Type.String() }),
};

function ask(text: string, extra: Partial<Context> = {}): Context {
  return { systemPrompt: "Be brief.", messages: [{ role: "user", content: text, timestamp: 1 }], ...extra };
}

async function drain(
  options: StreamOptions,
  context: Context = ask("hi"),
  model: Model = claude(),
  onEvent?: (e: AssistantMessageEvent) => void,
): Promise<{ events: AssistantMessageEvent[]; final: AssistantMessage }> {
  const stream = provider.call("stream", model, context, options);
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    onEvent?.(event);
  }
  return { events, final: await stream.result() };
}

/** Reasoning with a signature, then text, then a tool call whose input arrives in two pieces. */
const FULL_ANSWER = [
  bedrockEvent("messageStart", { role: "assistant" }),
  bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "The user " } } }),
  bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "wants a file." } } }),
  bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { signature: "sig-abc" } } }),
  bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
  bedrockEvent("contentBlockDelta", { contentBlockIndex: 1, delta: { text: "Reading " } }),
  bedrockEvent("contentBlockDelta", { contentBlockIndex: 1, delta: { text: "it now." } }),
  bedrockEvent("contentBlockStop", { contentBlockIndex: 1 }),
  bedrockEvent("contentBlockStart", {
    contentBlockIndex: 2,
    start: { toolUse: { toolUseId: "tooluse_1", name: "read" } },
  }),
  bedrockEvent("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"path":' } } }),
  bedrockEvent("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '"a.txt"}' } } }),
  bedrockEvent("contentBlockStop", { contentBlockIndex: 2 }),
  bedrockEvent("messageStop", { stopReason: "tool_use" }),
  bedrockEvent("metadata", {
    usage: { inputTokens: 100, outputTokens: 20, totalTokens: 150, cacheReadInputTokens: 30, cacheWriteInputTokens: 0 },
    metrics: { latencyMs: 5 },
  }),
];

describe("provider-bedrock over the AWS event stream", () => {
  it("streams thinking, text and a tool call, signed with SigV4 from AWS access keys", async () => {
    process.env.AWS_ACCESS_KEY_ID = "AKIDEXAMPLE";
    process.env.AWS_SECRET_ACCESS_KEY = "secret-example";
    process.env.AWS_REGION = "eu-west-1";
    server.reply({ messages: FULL_ANSWER });
    const { events, final } = await drain({ reasoning: "medium" }, ask("read a.txt", { tools: [readTool] }));

    expect(final.errorMessage).toBeUndefined();
    expect(final.stopReason).toBe("toolUse");
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
    expect(final.content).toEqual([
      { type: "thinking", thinking: "The user wants a file.", thinkingSignature: "sig-abc" },
      { type: "text", text: "Reading it now." },
      { type: "toolCall", id: "tooluse_1", name: "read", arguments: { path: "a.txt" } },
    ]);
    expect(final.usage).toMatchObject({ input: 100, output: 20, cacheRead: 30, cacheWrite: 0, totalTokens: 150 });
    expect(final.usage.cost.total).toBeCloseTo((100 * 3 + 20 * 15 + 30 * 0.3) / 1e6, 12);

    const request = server.requests[0]!;
    expect(request.path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/converse-stream`);
    const auth = String(request.headers.authorization);
    expect(auth).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, /);
    expect(auth).toMatch(/SignedHeaders=:authority;[^,]*x-amz-date[^,]*, Signature=[0-9a-f]{64}$/);
    expect(request.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    expect(request.body.system).toEqual([{ text: "Be brief." }, { cachePoint: { type: "default" } }]);
    expect(request.body.messages).toEqual([
      { role: "user", content: [{ text: "read a.txt" }, { cachePoint: { type: "default" } }] },
    ]);
    expect(request.body.toolConfig.tools[0].toolSpec).toMatchObject({
      name: "read",
      description: "Read a file",
      inputSchema: { json: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
    });
    expect(request.body.additionalModelRequestFields).toEqual({
      thinking: { type: "enabled", budget_tokens: 8192, display: "summarized" },
      anthropic_beta: ["interleaved-thinking-2025-05-14"],
    });
    expect(request.body.inferenceConfig.maxTokens).toBe(64_000);
  });

  it("sends AWS_BEARER_TOKEN_BEDROCK as a bearer token and replays a tool turn with its signature", async () => {
    process.env.AWS_BEARER_TOKEN_BEDROCK = "bedrock-api-key-123";
    server.reply({
      messages: [
        bedrockEvent("messageStart", { role: "assistant" }),
        bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "It says hello." } }),
        bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
        bedrockEvent("messageStop", { stopReason: "end_turn" }),
        bedrockEvent("metadata", { usage: { inputTokens: 5, outputTokens: 4, totalTokens: 9 }, metrics: {} }),
      ],
    });
    const model = claude();
    const history: Context = {
      messages: [
        { role: "user", content: "read a.txt", timestamp: 1 },
        {
          role: "assistant",
          api: "bedrock-converse-stream",
          provider: "amazon-bedrock",
          model: MODEL_ID,
          content: [
            { type: "thinking", thinking: "Need the file.", thinkingSignature: "sig-1" },
            { type: "toolCall", id: "tooluse_1", name: "read", arguments: { path: "a.txt" } },
          ],
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
        },
        {
          role: "toolResult",
          toolCallId: "tooluse_1",
          toolName: "read",
          content: [{ type: "text", text: "hello" }],
          isError: false,
          timestamp: 3,
        },
      ],
      tools: [readTool],
    };
    const { final } = await drain({ cacheRetention: "none" }, history, model);
    expect(final.errorMessage).toBeUndefined();
    expect(final.stopReason).toBe("stop");
    expect(final.content).toEqual([{ type: "text", text: "It says hello." }]);
    const request = server.requests[0]!;
    expect(request.headers.authorization).toBe("Bearer bedrock-api-key-123");
    expect(request.body.messages).toEqual([
      { role: "user", content: [{ text: "read a.txt" }] },
      {
        role: "assistant",
        content: [
          { reasoningContent: { reasoningText: { text: "Need the file.", signature: "sig-1" } } },
          { toolUse: { toolUseId: "tooluse_1", name: "read", input: { path: "a.txt" } } },
        ],
      },
      {
        role: "user",
        content: [{ toolResult: { toolUseId: "tooluse_1", content: [{ text: "hello" }], status: "success" } }],
      },
    ]);
    expect(request.body.additionalModelRequestFields).toBeUndefined();
  });

  it("turns an AWS error response and an in-stream exception into one error line each", async () => {
    process.env.AWS_BEARER_TOKEN_BEDROCK = "k";
    server.reply(
      {
        status: 400,
        errorType: "ValidationException",
        message: "The model returned the following errors: prompt is too long: 250000 tokens > 200000 maximum",
      },
      {
        messages: [
          bedrockEvent("messageStart", { role: "assistant" }),
          bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Par" } }),
          bedrockException("modelStreamErrorException", "the model broke down"),
        ],
      },
    );
    const first = await drain({});
    expect(first.final.stopReason).toBe("error");
    expect(first.final.errorMessage).toBe(
      "Validation error: The model returned the following errors: prompt is too long: 250000 tokens > 200000 maximum",
    );
    expect(first.events.map((e) => e.type)).toEqual(["error"]);
    const second = await drain({});
    expect(second.final.stopReason).toBe("error");
    expect(second.final.errorMessage).toMatch(/the model broke down/);
    expect(second.events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "error"]);
  });

  it("retries a ThrottlingException (HTTP 429) while nothing was streamed, then answers", async () => {
    process.env.AWS_BEARER_TOKEN_BEDROCK = "k";
    server.reply(
      { status: 429, errorType: "ThrottlingException", message: "Too many requests, please wait" },
      {
        messages: [
          bedrockEvent("messageStart", { role: "assistant" }),
          bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Second try." } }),
          bedrockEvent("messageStop", { stopReason: "end_turn" }),
        ],
      },
    );
    const retry = { enabled: true, maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 };
    const { events, final } = await drain({ retry });
    expect(final.errorMessage).toBeUndefined();
    expect(final.content).toEqual([{ type: "text", text: "Second try." }]);
    expect(events.filter((e) => e.type === "start")).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.headers.authorization).toBe("Bearer k");
  });

  it("aborts a stream the server holds open, ending with stopReason aborted", async () => {
    process.env.AWS_BEARER_TOKEN_BEDROCK = "k";
    server.reply({
      messages: [
        bedrockEvent("messageStart", { role: "assistant" }),
        bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Once upon" } }),
      ],
      holdOpen: true,
    });
    const controller = new AbortController();
    const { events, final } = await drain({ signal: controller.signal }, ask("story"), claude(), (e) => {
      if (e.type === "text_delta") controller.abort();
    });
    expect(final.stopReason).toBe("aborted");
    expect(final.errorMessage).toBe("Request was aborted");
    expect(events.at(-1)?.type).toBe("error");
  });

  it("uses adaptive thinking with an effort for Claude 4.6 models and no cache points for other vendors", async () => {
    process.env.AWS_BEARER_TOKEN_BEDROCK = "k";
    const done = [
      bedrockEvent("messageStart", { role: "assistant" }),
      bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "ok" } }),
      bedrockEvent("messageStop", { stopReason: "end_turn" }),
    ];
    server.reply({ messages: done });
    const opus = claude({ id: "global.anthropic.claude-opus-4-6-v1", name: "Claude Opus 4.6" });
    expect((await drain({ reasoning: "high" }, ask("hi"), opus)).final.stopReason).toBe("stop");
    expect(server.requests[0]!.body.additionalModelRequestFields).toEqual({
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "high" },
    });
    const nova = claude({ id: "amazon.nova-pro-v1:0", name: "Nova Pro", reasoning: false });
    expect((await drain({ reasoning: "high" }, ask("hi"), nova)).final.content).toEqual([{ type: "text", text: "ok" }]);
    const body = server.requests[1]!.body;
    expect(body.system).toEqual([{ text: "Be brief." }]);
    expect(body.messages).toEqual([{ role: "user", content: [{ text: "hi" }] }]);
    expect(body.additionalModelRequestFields).toBeUndefined();
    expect(body.inferenceConfig).toEqual({});
  });
});
