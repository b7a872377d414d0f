/**
 * Acceptance 1 for the "openai-responses" slot: the real `openai` SDK against MockLlmServer, with named
 * Responses API events in the wire format. Exact event sequences and final messages, for success and
 * for every failure the provider must turn into an `error` event instead of a throw.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isContextOverflow } from "../../../kit/ai/overflow.js";
import { MockLlmServer, type SseEvent } from "../../support/mock-llm-server.js";
import {
  reasoningItem,
  reasoningTextStream,
  recorded as reasoningRecorded,
  messageId as reasoningMessageId,
  summaryDeltas,
  textDeltas as answerDeltas,
} from "../../fixtures/sse/openai-responses/reasoning-text.js";
import {
  messageId,
  recorded as textRecorded,
  textDeltas,
  textStream,
} from "../../fixtures/sse/openai-responses/text.js";
import {
  parallelCalls,
  parallelToolCallStream,
  readCall,
  toolCallStream,
} from "../../fixtures/sse/openai-responses/tool-calls.js";
import { messageItem, responseStream } from "../../fixtures/sse/openai-responses/envelope.js";
import { ask, bootProvider, responsesModel, runStream, textEvents, type BootedProvider } from "./harness.js";

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

const RATE_LIMITED = {
  status: 429,
  headers: { "retry-after": "0" },
  json: {
    error: {
      message: "Rate limit reached for gpt-5-mini on tokens per min (TPM): Limit 200000, Used 199000, Requested 2000.",
      type: "tokens",
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

/** Index of the first event of `type` in a fixture (to cut a stream just after it). */
function indexAfter(stream: SseEvent[], type: string, occurrence = 1): number {
  let seen = 0;
  for (let i = 0; i < stream.length; i++)
    if ((stream[i]!.data as { type: string }).type === type && ++seen === occurrence) return i + 1;
  throw new Error(`no ${type} #${occurrence} in fixture`);
}

describe("openai-responses: successful streams", () => {
  it("streams plain text: one message item becomes one text block signed with the item id", async () => {
    server.enqueue({ sse: textStream });
    const model = responsesModel(server.url, { id: "gpt-4.1-mini", reasoning: false });
    const run = await runStream(booted.handle, model, ask("hi"));
    expect(run.types).toEqual(["start", ...textEvents(textDeltas.length), "done"]);
    expect(
      run.events.filter((e) => e.type === "text_delta").map((e) => (e.type === "text_delta" ? e.delta : "")),
    ).toEqual(textDeltas);
    expect(run.message).toMatchObject({
      role: "assistant",
      api: "openai-responses",
      provider: "openai",
      model: "gpt-4.1-mini",
      responseId: textRecorded.id,
      stopReason: "stop",
      content: [{ type: "text", text: "Hello! How can I help you today?", textSignature: messageId }],
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.path).toBe("/v1/responses");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-test");
  });

  it("streams reasoning summaries as thinking and keeps the encrypted reasoning item as its signature", async () => {
    server.enqueue({ sse: reasoningTextStream });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("2+2?"), { reasoning: "high" });
    const summaryDeltaCount = summaryDeltas.flat().length + 1; // + the "\n\n" between the two summary parts
    expect(run.types).toEqual([
      "start",
      "thinking_start",
      ...Array<string>(summaryDeltaCount).fill("thinking_delta"),
      "thinking_end",
      ...textEvents(answerDeltas.length),
      "done",
    ]);
    const thinkingText = "**Adding numbers**\n\nThe user wants 2+2.\n\n**Answering**\n\nIt is 4.";
    const streamed = run.events
      .filter((e) => e.type === "thinking_delta")
      .map((e) => (e.type === "thinking_delta" ? e.delta : ""))
      .join("");
    expect(streamed).toBe(thinkingText);
    expect(run.message.content).toEqual([
      { type: "thinking", thinking: thinkingText, thinkingSignature: JSON.stringify(reasoningItem) },
      { type: "text", text: "2 + 2 = 4.", textSignature: reasoningMessageId },
    ]);
    const signature = JSON.parse((run.message.content[0] as { thinkingSignature: string }).thinkingSignature) as {
      id: string;
      encrypted_content: string;
    };
    expect(signature.id).toBe(reasoningItem.id);
    expect(signature.encrypted_content).toMatch(/^gAAAAA/);
    expect(run.message.responseId).toBe(reasoningRecorded.id);
  });

  it("streams one function call whose arguments arrive over many deltas; id is `${call_id}|${item_id}`", async () => {
    server.enqueue({ sse: toolCallStream });
    const run = await runStream(booted.handle, responsesModel(server.url, { reasoning: false }), ask("read it"));
    const pieces = Math.ceil(readCall.arguments.length / 4);
    expect(pieces).toBeGreaterThan(8);
    expect(run.types).toEqual([
      "start",
      "toolcall_start",
      ...Array<string>(pieces).fill("toolcall_delta"),
      "toolcall_end",
      "done",
    ]);
    const snapshots = run.argumentSnapshots.map((s) => s.arguments);
    expect(snapshots[0]).toBe("{}");
    expect(snapshots).toContain(JSON.stringify({ path: "src/index.ts" }));
    expect(snapshots).toContain(JSON.stringify({ path: "src/index.ts", offset: 10 }));
    expect(snapshots.at(-1)).toBe(JSON.stringify({ path: "src/index.ts", offset: 10, limit: 40 }));
    expect(run.message.content).toEqual([
      {
        type: "toolCall",
        id: `${readCall.callId}|${readCall.itemId}`,
        name: "read",
        arguments: { path: "src/index.ts", offset: 10, limit: 40 },
      },
    ]);
    expect(run.message.stopReason).toBe("toolUse");
  });

  it("streams three function calls, one item after another, each with split arguments", async () => {
    server.enqueue({ sse: parallelToolCallStream });
    const run = await runStream(booted.handle, responsesModel(server.url, { reasoning: false }), ask("look around"));
    const expected: string[] = ["start"];
    for (const call of parallelCalls)
      expected.push(
        "toolcall_start",
        ...Array<string>(Math.ceil(call.arguments.length / 5)).fill("toolcall_delta"),
        "toolcall_end",
      );
    expected.push("done");
    expect(run.types).toEqual(expected);
    expect(run.message.content).toEqual(
      parallelCalls.map((call) => ({
        type: "toolCall",
        id: `${call.callId}|${call.itemId}`,
        name: call.name,
        arguments: JSON.parse(call.arguments),
      })),
    );
    expect(run.message.stopReason).toBe("toolUse");
  });

  it("fills usage from response.completed (cached tokens as cache reads) and prices it", async () => {
    server.enqueue({ sse: textStream });
    const run = await runStream(booted.handle, responsesModel(server.url, { reasoning: false }), ask("hi"));
    const { cost, ...tokens } = run.message.usage;
    expect(tokens).toEqual({ input: 1000, output: 50, cacheRead: 200, cacheWrite: 0, totalTokens: 1250 });
    expect(cost.input).toBeCloseTo(0.00125, 12);
    expect(cost.output).toBeCloseTo(0.0005, 12);
    expect(cost.cacheRead).toBeCloseTo(0.000025, 12);
    expect(cost.total).toBeCloseTo(0.001775, 12);
  });

  it("status incomplete (max_output_tokens) maps to stopReason length", async () => {
    server.enqueue({
      sse: responseStream({ ...textRecorded, status: "incomplete" }, [
        { item: messageItem(messageId, "Once upon"), deltas: [["Once", " upon"]] },
      ]),
    });
    const run = await runStream(booted.handle, responsesModel(server.url, { reasoning: false }), ask("story"));
    expect(run.types).toEqual(["start", ...textEvents(2), "done"]);
    expect(run.message.stopReason).toBe("length");
  });
});

describe("openai-responses: failures end in one error event", () => {
  it("a connection dropped mid-stream: error event with the content so far, no retry", async () => {
    server.enqueue({ sse: textStream, dropAfter: indexAfter(textStream, "response.output_text.delta", 2) });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    expect(run.message.stopReason).toBe("error");
    expect(run.message.errorMessage).toBe("The connection dropped mid-stream: terminated (other side closed)");
    expect(run.message.content).toEqual([{ type: "text", text: "Hello!" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("a 429 with retry-after: 0 is retried, and the consumer sees only the successful stream", async () => {
    server.enqueue(RATE_LIMITED, { sse: textStream });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", ...textEvents(textDeltas.length), "done"]);
    expect(run.message.errorMessage).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it("a 401 is not retried: one request, one error event with the API's message", async () => {
    server.enqueue(BAD_KEY, { sse: textStream });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("hi"));
    expect(run.types).toEqual(["error"]);
    expect(run.message.errorMessage).toBe(
      "401 Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("an abort mid-stream ends with stopReason aborted and closes the connection", async () => {
    const gone = server.clientGone();
    server.enqueue({ sse: textStream, stallAfter: indexAfter(textStream, "response.output_text.delta", 2) });
    const controller = new AbortController();
    const run = await runStream(
      booted.handle,
      responsesModel(server.url),
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
    await gone;
  });

  it("a malformed SSE data line ends in an error event that quotes it", async () => {
    const cut = indexAfter(textStream, "response.output_text.delta", 1);
    server.enqueue({
      sse: textStream.slice(0, cut),
      rawTail: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"oo\n\n',
    });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "error"]);
    expect(run.message.errorMessage).toBe(
      'Malformed data in the response stream (not JSON): "{\\"type\\":\\"response.output_text.delta\\",\\"delta\\":\\"oo"',
    );
  });

  it("an `error` event (context overflow) ends in an error event that keeps the API's words", async () => {
    server.enqueue({
      sse: [
        textStream[0]!,
        {
          event: "error",
          data: {
            type: "error",
            sequence_number: 1,
            code: "context_length_exceeded",
            message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
            param: "input",
          },
        },
      ],
    });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("huge"));
    expect(run.types).toEqual(["start", "error"]);
    expect(run.message.errorMessage).toBe(
      "context_length_exceeded: Your input exceeds the context window of this model. Please adjust your input and try again.",
    );
    expect(isContextOverflow(run.message)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("a 400 context overflow keeps the API's words and is not retried", async () => {
    server.enqueue({
      status: 400,
      json: {
        error: {
          message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
          type: "invalid_request_error",
          param: "input",
          code: "context_length_exceeded",
        },
      },
    });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("huge"));
    expect(run.types).toEqual(["error"]);
    expect(run.message.errorMessage).toContain("exceeds the context window");
    expect(isContextOverflow(run.message)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("response.failed ends in an error event with the response's error", async () => {
    const failed = {
      ...(textStream[0]!.data as { response: Record<string, unknown> }).response,
      status: "failed",
      error: { code: "server_error", message: "The model failed to generate a response." },
    };
    server.enqueue({
      sse: [
        ...textStream.slice(0, indexAfter(textStream, "response.output_text.delta", 1)),
        { event: "response.failed", data: { type: "response.failed", sequence_number: 9, response: failed } },
      ],
    });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", "text_start", "text_delta", "error"]);
    expect(run.message.errorMessage).toBe("server_error: The model failed to generate a response.");
  });

  it("a stream that ends without response.completed is an error, not a silent success", async () => {
    server.enqueue({ sse: textStream.slice(0, indexAfter(textStream, "response.output_item.done")) });
    const run = await runStream(booted.handle, responsesModel(server.url), ask("hi"));
    expect(run.types).toEqual(["start", ...textEvents(textDeltas.length), "error"]);
    expect(run.message.errorMessage).toContain("no response.completed");
  });
});
