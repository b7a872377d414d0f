/**
 * Acceptance 2: what provider-google puts on the wire, read back from the bodies MockLlmServer
 * recorded — function declarations, thinking per level, system instruction, function responses,
 * images, and thought signatures replayed only to the model that wrote them.
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
import * as fixtures from "../../fixtures/sse/google-generative-ai/responses.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { ask, baseOptions, bootGoogleProvider, drain, geminiModel } from "./harness.js";

let server: MockLlmServer;
let kernel: Kernel;
let provider: Handle<AiProvider>;

beforeEach(async () => {
  server = await new MockLlmServer().start();
  ({ kernel, provider } = await bootGoogleProvider());
});

afterEach(async () => {
  await kernel?.shutdown();
  await server.close();
});

/** Sends one request and returns the JSON body the server received. */
async function sentBody(
  context: Context,
  options: StreamOptions = baseOptions(),
  model: Model = geminiModel(server.url),
): Promise<any> {
  server.enqueue({ sse: fixtures.plainText });
  const { final } = await drain(provider.call("stream", model, context, options));
  expect(final.errorMessage).toBeUndefined();
  return server.requests.at(-1)!.body;
}

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** An assistant turn written by `author` (a Gemini model unless told otherwise). */
function assistantTurn(
  content: AssistantMessage["content"],
  author: Partial<Pick<AssistantMessage, "api" | "provider" | "model">> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "google-generative-ai",
    provider: "google",
    model: "gemini-2.5-flash",
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
    ...author,
  };
}

function toolResult(
  toolCallId: string,
  toolName: string,
  content: ToolResultMessage["content"],
  isError = false,
): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName, content, isError, timestamp: 3 };
}

/** A signed turn: thought summary, text and a call, each with the signature Gemini gave it. */
function signedTurn(author: Partial<Pick<AssistantMessage, "api" | "provider" | "model">> = {}): Message[] {
  return [
    { role: "user", content: "Read a.ts", timestamp: 1 },
    assistantTurn(
      [
        { type: "thinking", thinking: "I should read the file.", thinkingSignature: "VGhpbmtTaWc=" },
        { type: "text", text: "Reading it.", textSignature: "VGV4dFNpZw==" },
        { type: "toolCall", id: "read_1", name: "read", arguments: { path: "a.ts" }, thoughtSignature: "Q2FsbFNpZw==" },
      ],
      author,
    ),
    toolResult("read_1", "read", [{ type: "text", text: "export const a = 1;" }]),
  ];
}

describe("provider-google request bodies", () => {
  it("sends tools as function declarations with their JSON Schema", async () => {
    const parameters = Type.Object({
      path: Type.String({ description: "File to read" }),
      limit: Type.Optional(Type.Integer({ minimum: 1 })),
      mode: Type.Union([Type.Literal("text"), Type.Literal("bytes")]),
    });
    const body = await sentBody(ask("Read it", { tools: [{ name: "read", description: "Read a file", parameters }] }));
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "read",
            description: "Read a file",
            parametersJsonSchema: {
              type: "object",
              properties: {
                path: { type: "string", description: "File to read" },
                limit: { type: "integer", minimum: 1 },
                mode: {
                  anyOf: [
                    { type: "string", const: "text" },
                    { type: "string", const: "bytes" },
                  ],
                },
              },
              required: ["path", "mode"],
            },
          },
        ],
      },
    ]);
  });

  it("sends no tools when the context has none", async () => {
    const body = await sentBody(ask("Hi"));
    expect(body.tools).toBeUndefined();
  });

  const levels: Array<[StreamOptions["reasoning"], unknown]> = [
    ["minimal", { includeThoughts: true, thinkingBudget: 1024 }],
    ["low", { includeThoughts: true, thinkingBudget: 2048 }],
    ["medium", { includeThoughts: true, thinkingBudget: 8192 }],
    ["high", { includeThoughts: true, thinkingBudget: 16384 }],
    ["xhigh", { includeThoughts: true, thinkingBudget: 16384 }],
    ["off", { thinkingBudget: 0 }],
    [undefined, { thinkingBudget: 0 }],
  ];
  for (const [level, expected] of levels) {
    it(`sends thinkingConfig ${JSON.stringify(expected)} for reasoning ${level}`, async () => {
      const body = await sentBody(ask("Think"), baseOptions({ reasoning: level }));
      expect(body.generationConfig.thinkingConfig).toEqual(expected);
    });
  }

  it("takes per-level budgets from options.thinkingBudgets (xhigh falls back to high)", async () => {
    const budgets = { low: 3000, high: 20000 };
    expect(
      (await sentBody(ask("Think"), baseOptions({ reasoning: "low", thinkingBudgets: budgets }))).generationConfig
        .thinkingConfig,
    ).toEqual({ includeThoughts: true, thinkingBudget: 3000 });
    expect(
      (await sentBody(ask("Think"), baseOptions({ reasoning: "xhigh", thinkingBudgets: budgets }))).generationConfig
        .thinkingConfig,
    ).toEqual({ includeThoughts: true, thinkingBudget: 20000 });
    expect(
      (await sentBody(ask("Think"), baseOptions({ reasoning: "medium", thinkingBudgets: budgets }))).generationConfig
        .thinkingConfig,
    ).toEqual({ includeThoughts: true, thinkingBudget: 8192 });
  });

  it("switches thinking off as far as each model allows, and sends none to models that do not reason", async () => {
    const off = baseOptions({ reasoning: "off" });
    const config = async (overrides: Partial<Model>) =>
      (await sentBody(ask("Hi"), off, geminiModel(server.url, overrides))).generationConfig?.thinkingConfig;
    expect(await config({ id: "gemini-2.5-pro" })).toEqual({ thinkingBudget: 128 });
    expect(await config({ id: "gemini-3-pro-preview" })).toEqual({ thinkingLevel: "LOW" });
    expect(await config({ id: "gemini-3-flash-preview" })).toEqual({ thinkingLevel: "MINIMAL" });
    expect(await config({ id: "gemini-2.0-flash", reasoning: false })).toBeUndefined();
    const high = await sentBody(
      ask("Hi"),
      baseOptions({ reasoning: "high" }),
      geminiModel(server.url, { id: "gemini-2.0-flash", reasoning: false }),
    );
    expect(high.generationConfig?.thinkingConfig).toBeUndefined();
  });

  it("sends the system prompt as systemInstruction, and maxTokens / temperature in generationConfig", async () => {
    const body = await sentBody(
      ask("Hi", { systemPrompt: "You are a careful coding agent." }),
      baseOptions({ maxTokens: 4096, temperature: 0.2 }),
    );
    expect(body.systemInstruction).toEqual({ parts: [{ text: "You are a careful coding agent." }], role: "user" });
    expect(body.generationConfig).toMatchObject({ maxOutputTokens: 4096, temperature: 0.2 });
    expect(body.contents).toEqual([{ role: "user", parts: [{ text: "Hi" }] }]);
  });

  it("sends no systemInstruction without a system prompt", async () => {
    const body = await sentBody(ask("Hi"));
    expect(body.systemInstruction).toBeUndefined();
    expect(body.generationConfig?.maxOutputTokens).toBeUndefined();
  });

  it("places the results of one assistant turn as functionResponse parts in one user content", async () => {
    const messages: Message[] = [
      { role: "user", content: "Look around", timestamp: 1 },
      assistantTurn([
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts" } },
        { type: "toolCall", id: "c2", name: "read", arguments: { path: "missing.ts" } },
        { type: "toolCall", id: "c3", name: "bash", arguments: { command: "ls" } },
      ]),
      toolResult("c1", "read", [
        { type: "text", text: "line 1" },
        { type: "text", text: "line 2" },
      ]),
      toolResult("c2", "read", [{ type: "text", text: "ENOENT: no such file" }], true),
      toolResult("c3", "bash", [{ type: "text", text: "a.ts" }]),
      { role: "user", content: "Thanks", timestamp: 4 },
    ];
    const body = await sentBody({ messages });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "Look around" }] },
      {
        role: "model",
        parts: [
          { functionCall: { name: "read", args: { path: "a.ts" } } },
          { functionCall: { name: "read", args: { path: "missing.ts" } } },
          { functionCall: { name: "bash", args: { command: "ls" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "read", response: { output: "line 1\nline 2" } } },
          { functionResponse: { name: "read", response: { error: "ENOENT: no such file" } } },
          { functionResponse: { name: "bash", response: { output: "a.ts" } } },
        ],
      },
      { role: "user", parts: [{ text: "Thanks" }] },
    ]);
  });

  it("answers a call left without a result with an error functionResponse (prepareHistory)", async () => {
    const messages: Message[] = [
      { role: "user", content: "Go", timestamp: 1 },
      assistantTurn([{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "sleep 100" } }]),
      { role: "user", content: "Stop that", timestamp: 4 },
    ];
    const body = await sentBody({ messages });
    expect(body.contents[2]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            name: "bash",
            response: { error: "No result provided: the tool call was interrupted before it returned" },
          },
        },
      ],
    });
  });

  it("sends user images as inlineData parts", async () => {
    const body = await sentBody({
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
    });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "What is this?" }, { inlineData: { mimeType: "image/png", data: PNG } }] },
    ]);
  });

  it("sends tool-result images after the function responses for Gemini 2, inside them for Gemini 3", async () => {
    const messages = (model: string): Message[] => [
      { role: "user", content: "Screenshot", timestamp: 1 },
      assistantTurn([{ type: "toolCall", id: "s1", name: "screenshot", arguments: {} }], { model }),
      toolResult("s1", "screenshot", [{ type: "image", data: PNG, mimeType: "image/png" }]),
    ];
    const gemini2 = await sentBody({ messages: messages("gemini-2.5-flash") });
    expect(gemini2.contents.slice(2)).toEqual([
      {
        role: "user",
        parts: [{ functionResponse: { name: "screenshot", response: { output: "(see attached image)" } } }],
      },
      {
        role: "user",
        parts: [
          { text: "Images returned by the tool calls above:" },
          { inlineData: { mimeType: "image/png", data: PNG } },
        ],
      },
    ]);
    const gemini3 = await sentBody(
      { messages: messages("gemini-3-pro-preview") },
      baseOptions(),
      geminiModel(server.url, { id: "gemini-3-pro-preview" }),
    );
    expect(gemini3.contents.slice(2)).toEqual([
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "screenshot",
              response: { output: "(see attached image)" },
              parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
            },
          },
        ],
      },
    ]);
  });

  it("replaces images with a note for a text-only model", async () => {
    const body = await sentBody(
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Look" },
              { type: "image", data: PNG, mimeType: "image/png" },
            ],
            timestamp: 1,
          },
        ],
      },
      baseOptions(),
      geminiModel(server.url, { input: ["text"] }),
    );
    expect(body.contents[0].parts).toEqual([
      { text: "Look" },
      { text: "(image omitted: this model does not accept images)" },
    ]);
  });

  it("replays thought signatures to the model that wrote them", async () => {
    const body = await sentBody({ messages: signedTurn() });
    expect(body.contents[1]).toEqual({
      role: "model",
      parts: [
        { thought: true, text: "I should read the file.", thoughtSignature: "VGhpbmtTaWc=" },
        { text: "Reading it.", thoughtSignature: "VGV4dFNpZw==" },
        { functionCall: { name: "read", args: { path: "a.ts" } }, thoughtSignature: "Q2FsbFNpZw==" },
      ],
    });
  });

  it("drops thought signatures for another model; its thinking becomes plain text", async () => {
    const body = await sentBody(
      { messages: signedTurn() },
      baseOptions(),
      geminiModel(server.url, { id: "gemini-2.5-pro" }),
    );
    expect(body.contents[1]).toEqual({
      role: "model",
      parts: [
        { text: "I should read the file." },
        { text: "Reading it." },
        { functionCall: { name: "read", args: { path: "a.ts" } } },
      ],
    });
    expect(JSON.stringify(body)).not.toContain("thoughtSignature");
  });

  it("drops signatures written through another API even for a same-named model", async () => {
    const body = await sentBody({
      messages: signedTurn({ api: "openai-completions", provider: "openrouter", model: "gemini-2.5-flash" }),
    });
    expect(JSON.stringify(body)).not.toContain("thoughtSignature");
  });

  it("gives Gemini 3 the documented stand-in signature for a call another model made", async () => {
    const body = await sentBody(
      { messages: signedTurn({ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" }) },
      baseOptions(),
      geminiModel(server.url, { id: "gemini-3-pro-preview" }),
    );
    expect(body.contents[1].parts.at(-1)).toEqual({
      functionCall: { name: "read", args: { path: "a.ts" } },
      thoughtSignature: "skip_thought_signature_validator",
    });
  });

  it("leaves Gemini 3's own parallel calls as signed: only the first carries a signature, no stand-in added", async () => {
    const gemini3 = { model: "gemini-3-pro-preview" };
    const messages: Message[] = [
      { role: "user", content: "Read both", timestamp: 1 },
      assistantTurn(
        [
          { type: "toolCall", id: "r1", name: "read", arguments: { path: "a.ts" }, thoughtSignature: "Rmlyc3RDYWxs" },
          { type: "toolCall", id: "r2", name: "read", arguments: { path: "b.ts" } },
        ],
        gemini3,
      ),
      toolResult("r1", "read", [{ type: "text", text: "a" }]),
      toolResult("r2", "read", [{ type: "text", text: "b" }]),
    ];
    const body = await sentBody({ messages }, baseOptions(), geminiModel(server.url, { id: "gemini-3-pro-preview" }));
    expect(body.contents[1].parts).toEqual([
      { functionCall: { name: "read", args: { path: "a.ts" } }, thoughtSignature: "Rmlyc3RDYWxs" },
      { functionCall: { name: "read", args: { path: "b.ts" } } },
    ]);
  });

  it("sends call ids only to models that are not Gemini or Gemma, rewritten to the id rule", async () => {
    const messages: Message[] = [
      { role: "user", content: "Go", timestamp: 1 },
      assistantTurn([{ type: "toolCall", id: "call|with:odd/chars", name: "ls", arguments: {} }], {
        api: "openai-responses",
        provider: "openai",
        model: "gpt-5",
      }),
      toolResult("call|with:odd/chars", "ls", [{ type: "text", text: "a.ts" }]),
    ];
    const gemini = await sentBody({ messages });
    expect(JSON.stringify(gemini.contents)).not.toContain('"id"');
    const other = await sentBody(
      { messages },
      baseOptions(),
      geminiModel(server.url, { id: "claude-sonnet-4-5@vertex" }),
    );
    const callId = other.contents[1].parts[0].functionCall.id;
    expect(callId).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(other.contents[2].parts[0].functionResponse.id).toBe(callId);
  });

  it("skips errored and aborted assistant turns", async () => {
    const failed = assistantTurn([{ type: "text", text: "partial" }]);
    failed.stopReason = "error";
    const body = await sentBody({
      messages: [
        { role: "user", content: "Hi", timestamp: 1 },
        failed,
        { role: "user", content: "Again", timestamp: 3 },
      ],
    });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "Hi" }] },
      { role: "user", parts: [{ text: "Again" }] },
    ]);
  });

  it("lets onPayload inspect and replace the request", async () => {
    let seen: any;
    const body = await sentBody(
      ask("Hi"),
      baseOptions({
        onPayload: (payload) => {
          seen = payload;
          return { ...(payload as object), contents: [{ role: "user", parts: [{ text: "Replaced" }] }] };
        },
      }),
    );
    expect(seen).toMatchObject({ model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "Hi" }] }] });
    expect(body.contents).toEqual([{ role: "user", parts: [{ text: "Replaced" }] }]);
  });

  it("sends model and option headers", async () => {
    server.enqueue({ sse: fixtures.plainText });
    await drain(
      provider.call(
        "stream",
        geminiModel(server.url, { headers: { "x-model-header": "m" } }),
        ask("Hi"),
        baseOptions({ headers: { "x-call-header": "c" } }),
      ),
    );
    expect(server.requests[0]!.headers).toMatchObject({
      "x-model-header": "m",
      "x-call-header": "c",
      "x-goog-api-key": "test-key",
    });
  });
});
