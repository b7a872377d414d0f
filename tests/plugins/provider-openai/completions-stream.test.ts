/**
 * Acceptance 1 for the "openai-completions" slot: the real `openai` SDK against MockLlmServer, with
 * Chat Completions chunks in the wire format. Exact event sequences and final messages, for success
 * and for every failure the provider must turn into an `error` event instead of a throw.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Context } from "../../../contracts/ai/index.js";
import { isContextOverflow } from "../../../kit/ai/overflow.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import {
  openRouterReasoningStream,
  encryptedDetail,
  call as openRouterCall,
} from "../../fixtures/sse/openai-completions/openrouter-reasoning.js";
import { textDeltas, textStream, usage } from "../../fixtures/sse/openai-completions/text.js";
import {
  reasoningDeltas,
  textDeltas as answerDeltas,
  thinkingTextStream,
  completion as deepseekCompletion,
} from "../../fixtures/sse/openai-completions/thinking-text.js";
import {
  parallelCalls,
  parallelToolCallStream,
  readCall,
  toolCallStream,
} from "../../fixtures/sse/openai-completions/tool-calls.js";
import { deltaChunk, DONE } from "../../fixtures/sse/openai-completions/envelope.js";
import { completion as textCompletion } from "../../fixtures/sse/openai-completions/text.js";
import { ask, bootProvider, completionsModel, runStream, textEvents, type BootedProvider } from "./harness.js";

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

const RATE_LIMITED = {
  status: 429,
  headers: { "retry-after": "0" },
  json: {
    error: {
      message: "Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.",
      type: "requests",
      param: null,
      code: "rate_limit_exceeded",
    },
  },
};
const BAD_KEY = {
  status: 401,
  json: {
    error: {
      message:
        "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    },
  },
};

describe("openai-completions: successful streams", () => {
  it("streams plain text: start, one text block, done", async () => {
    server.enqueue({ sse: textStream });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", ...textEvents(textDeltas.length), "done"]);
    expect(
      run.events.filter((e) => e.type === "text_delta").map((e) => (e.type === "text_delta" ? e.delta : "")),
    ).toEqual(textDeltas);
    expect(run.message).toMatchObject({
      role: "assistant",
      api: "openai-completions",
      provider: "openai",
      model: "gpt-4o-mini",
      responseId: textCompletion.id,
      stopReason: "stop",
      content: [{ type: "text", text: "Hello! How can I help you today?" }],
    });
    expect(run.message.errorMessage).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toBe("/v1/chat/completions");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-test");
  });

  it("streams reasoning_content as thinking, then the answer as text (DeepSeek)", async () => {
    server.enqueue({ sse: thinkingTextStream });
    const model = completionsModel(server.url, { id: "deepseek-reasoner", provider: "deepseek", reasoning: true });
    const run = await runStream(booted.handle, model, ask("2+2?"), { reasoning: "high" });
    expect(run.types).toEqual([
      "start",
      "thinking_start",
      ...Array<string>(reasoningDeltas.length).fill("thinking_delta"),
      "thinking_end",
      ...textEvents(answerDeltas.length),
      "done",
    ]);
    expect(run.message.content).toEqual([
      { type: "thinking", thinking: reasoningDeltas.join(""), thinkingSignature: "reasoning_content" },
      { type: "text", text: answerDeltas.join("") },
    ]);
    expect(run.message.responseId).toBe(deepseekCompletion.id);
    expect(run.message.stopReason).toBe("stop");
  });

  it("reads OpenRouter reasoning once (not again from reasoning_details) and keeps the encrypted detail on its tool call", async () => {
    server.enqueue({ sse: openRouterReasoningStream });
    const model = completionsModel(server.url, { id: "openai/o4-mini", provider: "openrouter", reasoning: true });
    const run = await runStream(booted.handle, model, ask("read a.txt"), { reasoning: "medium" });
    expect(run.types).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
    expect(run.message.content).toEqual([
      { type: "thinking", thinking: "Need to read the file.", thinkingSignature: "reasoning" },
      {
        type: "toolCall",
        id: openRouterCall.id,
        name: "read",
        arguments: { path: "a.txt" },
        thoughtSignature: JSON.stringify(encryptedDetail),
      },
    ]);
    expect(run.message.stopReason).toBe("toolUse");
  });

  it("streams one tool call whose arguments arrive over many chunks, parsing them incrementally", async () => {
    server.enqueue({ sse: toolCallStream });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("read it"));
    const pieces = Math.ceil(readCall.arguments.length / 4);
    expect(pieces).toBeGreaterThan(8);
    expect(run.types).toEqual([
      "start",
      "toolcall_start",
      ...Array<string>(pieces).fill("toolcall_delta"),
      "toolcall_end",
      "done",
    ]);
    expect(
      run.events
        .filter((e) => e.type === "toolcall_delta")
        .map((e) => (e.type === "toolcall_delta" ? e.delta : ""))
        .join(""),
    ).toBe(readCall.arguments);
    // Arguments grow as the JSON arrives: an empty object first, the path before the offset, all at the end.
    const snapshots = run.argumentSnapshots.map((s) => s.arguments);
    expect(snapshots[0]).toBe("{}");
    expect(snapshots).toContain(JSON.stringify({ path: "src/index.ts" }));
    expect(snapshots).toContain(JSON.stringify({ path: "src/index.ts", offset: 10 }));
    expect(snapshots.at(-1)).toBe(JSON.stringify({ path: "src/index.ts", offset: 10, limit: 40 }));
    const end = run.events.find((e) => e.type === "toolcall_end");
    expect(end?.type === "toolcall_end" ? end.toolCall : undefined).toEqual({
      type: "toolCall",
      id: readCall.id,
      name: "read",
      arguments: { path: "src/index.ts", offset: 10, limit: 40 },
    });
    expect(run.message.stopReason).toBe("toolUse");
    expect(run.message.content).toHaveLength(1);
  });

  it("streams three parallel tool calls by index, each with its own split arguments", async () => {
    server.enqueue({ sse: parallelToolCallStream });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("look around"));
    const expected: string[] = ["start"];
    for (const call of parallelCalls)
      expected.push("toolcall_start", ...Array<string>(Math.ceil(call.arguments.length / 5)).fill("toolcall_delta"));
    expected.push("toolcall_end", "toolcall_end", "toolcall_end", "done");
    expect(run.types).toEqual(expected);
    expect(run.message.content).toEqual(
      parallelCalls.map((call) => ({
        type: "toolCall",
        id: call.id,
        name: call.name,
        arguments: JSON.parse(call.arguments),
      })),
    );
    expect(run.message.content[2]).toMatchObject({ arguments: { command: 'ls -la "my dir"', timeout: 30 } });
    const ends = run.events
      .filter((e) => e.type === "toolcall_end")
      .map((e) => (e.type === "toolcall_end" ? e.contentIndex : -1));
    expect(ends).toEqual([0, 1, 2]);
    expect(run.message.stopReason).toBe("toolUse");
  });

  it("groups tool-call chunks that carry no index by id, and id-less chunks with the call before them", async () => {
    server.enqueue({
      sse: [
        deltaChunk(textCompletion, {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_a", type: "function", function: { name: "read", arguments: '{"path":' } }],
        }),
        deltaChunk(textCompletion, { tool_calls: [{ function: { arguments: '"a.txt"}' } }] }),
        deltaChunk(textCompletion, {
          tool_calls: [{ id: "call_b", type: "function", function: { name: "ls", arguments: "{}" } }],
        }),
        deltaChunk(textCompletion, {}, "tool_calls"),
        DONE,
      ],
    });
    const run = await runStream(booted.handle, completionsModel(server.url, { provider: "llama.cpp" }), ask("go"));
    expect(run.types).toEqual([
      "start",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_end",
      "toolcall_end",
      "done",
    ]);
    expect(run.message.content).toEqual([
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "call_b", name: "ls", arguments: {} },
    ]);
  });

  it("fills usage from the last chunk (cached tokens as cache reads) and prices it", async () => {
    server.enqueue({ sse: textStream });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(usage.prompt_tokens_details.cached_tokens).toBe(200);
    const { cost, ...tokens } = run.message.usage;
    expect(tokens).toEqual({ input: 1000, output: 50, cacheRead: 200, cacheWrite: 0, totalTokens: 1250 });
    expect(cost.input).toBeCloseTo(0.00125, 12);
    expect(cost.output).toBeCloseTo(0.0005, 12);
    expect(cost.cacheRead).toBeCloseTo(0.000025, 12);
    expect(cost.cacheWrite).toBe(0);
    expect(cost.total).toBeCloseTo(0.001775, 12);
  });

  it("streams a refusal as text", async () => {
    server.enqueue({
      sse: [
        deltaChunk(textCompletion, { role: "assistant", content: null, refusal: "" }),
        deltaChunk(textCompletion, { refusal: "I can't help" }),
        deltaChunk(textCompletion, { refusal: " with that." }),
        deltaChunk(textCompletion, {}, "stop"),
        DONE,
      ],
    });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("bad"));
    expect(run.types).toEqual(["start", ...textEvents(2), "done"]);
    expect(run.message.content).toEqual([{ type: "text", text: "I can't help with that." }]);
  });

  it("maps finish_reason length to stopReason length", async () => {
    server.enqueue({
      sse: [
        deltaChunk(textCompletion, { role: "assistant", content: "Once upon" }),
        deltaChunk(textCompletion, {}, "length"),
        DONE,
      ],
    });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("story"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
    expect(run.message.stopReason).toBe("length");
  });
});

describe("openai-completions: failures end in one error event", () => {
  it("a connection dropped mid-stream: error event with the content so far, no retry", async () => {
    server.enqueue({ sse: textStream, dropAfter: 3 });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(run.message.stopReason).toBe("error");
    expect(run.message.errorMessage).toBe("The connection dropped mid-stream: terminated (other side closed)");
    expect(run.message.content).toEqual([{ type: "text", text: "Hello!" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("a connection dropped before any content is retried transparently", async () => {
    server.enqueue({ sse: textStream, dropAfter: 1 }, { sse: textStream });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", ...textEvents(textDeltas.length), "done"]);
    expect(server.requests).toHaveLength(2);
  });

  it("a 429 with retry-after: 0 is retried, and the consumer sees only the successful stream", async () => {
    server.enqueue(RATE_LIMITED, { sse: textStream });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", ...textEvents(textDeltas.length), "done"]);
    expect(run.message.stopReason).toBe("stop");
    expect(run.message.errorMessage).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it("a 429 that persists past the retry budget ends in an error event", async () => {
    server.enqueue(RATE_LIMITED, RATE_LIMITED, RATE_LIMITED, RATE_LIMITED);
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["error"]);
    expect(run.message.errorMessage).toContain("Rate limit reached");
    expect(server.requests).toHaveLength(4);
  });

  it("a 401 is not retried: one request, one error event with the API's message", async () => {
    server.enqueue(BAD_KEY, { sse: textStream });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["error"]);
    expect(run.message.stopReason).toBe("error");
    expect(run.message.errorMessage).toBe(
      "401 Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("a context overflow keeps the API's words, for compaction to recognise", async () => {
    server.enqueue({
      status: 400,
      json: {
        error: {
          message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      },
    });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("huge"));
    expect(run.types).toEqual(["error"]);
    expect(run.message.errorMessage).toContain("exceeds the context window");
    expect(isContextOverflow(run.message)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("an abort mid-stream ends with stopReason aborted and closes the connection", async () => {
    const gone = server.clientGone();
    server.enqueue({ sse: textStream, stallAfter: 3 });
    const controller = new AbortController();
    const run = await runStream(
      booted.handle,
      completionsModel(server.url),
      ask("hi"),
      { signal: controller.signal },
      (event) => {
        if (event.type === "text_delta" && event.delta === "!") controller.abort();
      },
    );
    expect(run.types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    const last = run.events.at(-1)!;
    expect(last.type === "error" ? last.reason : undefined).toBe("aborted");
    expect(run.message.stopReason).toBe("aborted");
    expect(run.message.errorMessage).toBe("Request was aborted");
    expect(run.message.content).toEqual([{ type: "text", text: "Hello!" }]);
    await gone;
  });

  it("a malformed SSE data line ends in an error event that quotes it", async () => {
    server.enqueue({
      sse: textStream.slice(0, 3),
      rawTail: 'data: {"id":"chatcmpl-BZ3k","choices":[{"delta":{"content":"oops"\n\n',
    });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(run.message.stopReason).toBe("error");
    expect(run.message.errorMessage).toContain(
      '{\\"id\\":\\"chatcmpl-BZ3k\\",\\"choices\\":[{\\"delta\\":{\\"content\\":\\"oops\\"',
    );
    expect(run.message.errorMessage).toMatch(/^Malformed data in the response stream/);
  });

  it("a mid-stream error object from the server ends in an error event with its message", async () => {
    server.enqueue({
      sse: [
        ...textStream.slice(0, 2),
        {
          data: { error: { message: "The server had an error while processing your request.", type: "server_error" } },
        },
      ],
    });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "error"]);
    expect(run.message.errorMessage).toContain("The server had an error while processing your request.");
  });

  it("finish_reason content_filter is an error", async () => {
    server.enqueue({
      sse: [
        deltaChunk(textCompletion, { role: "assistant", content: "I" }),
        deltaChunk(textCompletion, {}, "content_filter"),
        DONE,
      ],
    });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("bad"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
    expect(run.message.stopReason).toBe("error");
    expect(run.message.errorMessage).toContain("content_filter");
  });

  it("a stream that ends without a finish_reason is an error, not a silent success", async () => {
    server.enqueue({ sse: [deltaChunk(textCompletion, { role: "assistant", content: "Half" }), DONE] });
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
    expect(run.message.errorMessage).toContain("no finish_reason");
  });

  it("a missing API key is an error event with a one-line explanation, and nothing is sent", async () => {
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"), { apiKey: "" });
    expect(run.types).toEqual(["error"]);
    expect(run.message.errorMessage).toBe(
      'No API key for provider "openai": pass --api-key, add it to auth.json, or set the provider\'s API key environment variable',
    );
    expect(server.requests).toHaveLength(0);
  });

  it("bad input (a base URL without a scheme, no message list) is a one-line error event, and nothing is sent", async () => {
    const noScheme = await runStream(
      booted.handle,
      completionsModel(server.url, { baseUrl: "localhost:11434/v1" }),
      ask("hi"),
    );
    expect(noScheme.types).toEqual(["error"]);
    expect(noScheme.message.errorMessage).toBe(
      'Model "openai/gpt-4o-mini" has an invalid baseUrl "localhost:11434/v1": expected an http:// or https:// URL such as "http://localhost:11434/v1"',
    );
    const noMessages = await runStream(booted.handle, completionsModel(server.url), {
      systemPrompt: "x",
    } as unknown as Context);
    expect(noMessages.types).toEqual(["error"]);
    expect(noMessages.message.errorMessage).toBe("The request context has no `messages` array");
    expect(server.requests).toHaveLength(0);
  });

  it("an onPayload hook that throws is an error event, not a throw", async () => {
    const run = await runStream(booted.handle, completionsModel(server.url), ask("hi"), {
      onPayload: () => {
        throw new Error("payload rejected by extension");
      },
    });
    expect(run.types).toEqual(["error"]);
    expect(run.message.errorMessage).toBe("payload rejected by extension");
  });

  it("an unreachable server is an error event, not a throw", async () => {
    const closed = await new MockLlmServer().start();
    const url = closed.url;
    await closed.close();
    const run = await runStream(booted.handle, completionsModel(url), ask("hi"), {
      retry: { enabled: false, maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    expect(run.types).toEqual(["error"]);
    expect(run.message.errorMessage).toMatch(/^Connection error\. \(.*ECONNREFUSED/);
  });
});
