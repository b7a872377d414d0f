/**
 * Issue 3, acceptance 3: one conversation moves Claude → GPT-5 mini (Responses) → DeepSeek (Chat
 * Completions) → Gemini → Claude, every step through the real provider plugin and its official SDK
 * against MockLlmServer. Each model answers in its own wire format (signed thinking, encrypted reasoning,
 * reasoning_content, thought signatures, four tool-call id styles), and every request body the server
 * receives is checked against its API's rules and for the handoff: foreign thinking became text, foreign
 * signatures are gone, tool-call ids fit the API and their results follow, the errored and aborted turns
 * are gone, the orphaned call got a synthetic error result, and the text-only model got notes instead
 * of images. The last step shows the way back: Claude gets its own signed thinking again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AssistantMessage,
  Context,
  ImageContent,
  Message,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "../../../contracts/ai/index.js";
import { MockLlmServer, type RecordedRequest } from "../../support/mock-llm-server.js";
import {
  bootProviders,
  claudeModel,
  converse,
  deepseekModel,
  geminiModel,
  gptModel,
  TOOLS,
  type Providers,
} from "./harness.js";
import { anthropicProblems, completionsProblems, geminiProblems, responsesProblems } from "./request-validity.js";
import {
  CLAUDE_BASH_ID,
  CLAUDE_DROPPED_AFTER,
  CLAUDE_DROPPED_TEXT,
  CLAUDE_DROPPED_TURN,
  CLAUDE_READ_ID,
  CLAUDE_REDACTED,
  CLAUDE_SIGNATURE,
  CLAUDE_THINKING,
  CLAUDE_TOOL_TURN,
  CLAUDE_WRAP_UP,
  DEEPSEEK_ABORTED_STALL,
  DEEPSEEK_ABORTED_TURN,
  DEEPSEEK_CALL_ID,
  DEEPSEEK_EDIT_ARGS,
  DEEPSEEK_REASONING,
  DEEPSEEK_TOOL_TURN,
  GEMINI_CALL_SIGNATURE,
  GEMINI_THOUGHT,
  GEMINI_TOOL_TURN,
  GPT_ENCRYPTED_REASONING,
  GPT_GREP,
  GPT_MESSAGE_ID,
  GPT_READ,
  GPT_REASONING_ID,
  GPT_REASONING_SUMMARY,
  GPT_TEXT,
  GPT_TOOL_TURN,
  PNG,
} from "./wire-turns.js";

type Json = Record<string, any>;

const SCREENSHOT: ImageContent = { type: "image", data: PNG, mimeType: "image/png" };
const USER_IMAGE_NOTE = "(image omitted: this model does not accept images)";
const TOOL_IMAGE_NOTE = "(tool image omitted: this model does not accept images)";
const SYNTHETIC_RESULT = /^No result provided/;

const user = (content: UserMessage["content"]): UserMessage => ({ role: "user", content, timestamp: Date.now() });
function toolResult(call: ToolCall, content: ToolResultMessage["content"], isError = false): ToolResultMessage {
  return { role: "toolResult", toolCallId: call.id, toolName: call.name, content, isError, timestamp: Date.now() };
}
const toolCalls = (message: AssistantMessage): ToolCall[] =>
  message.content.filter((b): b is ToolCall => b.type === "toolCall");

let server: MockLlmServer;
let providers: Providers;
/** The session's history, as it grows step by step. */
const history: Message[] = [];
const context = (): Context => ({
  systemPrompt: "You are a coding agent. Fix what the user asks.",
  messages: [...history],
  tools: TOOLS,
});

/** The body of the last request that reached the server, and its path. */
function lastRequest(): RecordedRequest & { body: Json } {
  return server.requests.at(-1)! as RecordedRequest & { body: Json };
}

beforeAll(async () => {
  server = await new MockLlmServer().start();
  providers = await bootProviders();
});

afterAll(async () => {
  await providers.kernel.shutdown();
  await server.close();
});

describe("a history written by Claude continues on Responses, Chat Completions, Gemini and back on Claude", () => {
  let claudeTurn: AssistantMessage;
  let gptTurn: AssistantMessage;
  let deepseekTurn: AssistantMessage;
  let geminiTurn: AssistantMessage;

  it("1. Claude thinks (signed and redacted) and calls read and bash; a second Claude turn breaks off", async () => {
    history.push(user([{ type: "text", text: "The login test fails. Here is the screenshot." }, SCREENSHOT]));
    server.enqueue({ sse: CLAUDE_TOOL_TURN });
    const turn = await converse(providers, claudeModel(server.url), context());
    expect(turn.types.at(-1)).toBe("done");
    claudeTurn = turn.message;
    expect(claudeTurn).toMatchObject({
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      stopReason: "toolUse",
    });
    expect(claudeTurn.content).toEqual([
      { type: "thinking", thinking: CLAUDE_THINKING, thinkingSignature: CLAUDE_SIGNATURE },
      { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: CLAUDE_REDACTED, redacted: true },
      { type: "text", text: "Let me read the test and run it." },
      { type: "toolCall", id: CLAUDE_READ_ID, name: "read", arguments: { path: "tests/login.test.ts" } },
      { type: "toolCall", id: CLAUDE_BASH_ID, name: "bash", arguments: { command: "npm test -- login" } },
    ]);
    history.push(claudeTurn);
    const [read, bash] = toolCalls(claudeTurn);
    history.push(
      toolResult(read!, [{ type: "text", text: "it('logs in', async () => { expect(res.status).toBe(200) })" }]),
    );
    history.push(
      toolResult(bash!, [{ type: "text", text: "FAIL tests/login.test.ts: expected 200, got 302" }, SCREENSHOT], true),
    );

    // The next Claude answer loses its connection part-way: an errored turn the session keeps.
    server.enqueue({ sse: CLAUDE_DROPPED_TURN, dropAfter: CLAUDE_DROPPED_AFTER });
    const dropped = await converse(providers, claudeModel(server.url), context());
    expect(dropped.types.at(-1)).toBe("error");
    expect(dropped.message).toMatchObject({
      stopReason: "error",
      content: [{ type: "text", text: CLAUDE_DROPPED_TEXT }],
    });
    history.push(dropped.message);
    history.push(user("Carry on with GPT-5 mini, please."));
  });

  it("2. GPT-5 mini (Responses) gets Claude's thinking as text, no Claude signatures, Claude's ids paired with fc_ items", async () => {
    server.enqueue({ sse: GPT_TOOL_TURN });
    const turn = await converse(providers, gptModel(server.url), context());
    const { path, body } = lastRequest();
    expect(path).toBe("/v1/responses");
    expect(responsesProblems(body)).toEqual([]);
    const text = JSON.stringify(body);
    for (const foreign of [CLAUDE_SIGNATURE, CLAUDE_REDACTED, "[Reasoning redacted]", CLAUDE_DROPPED_TEXT])
      expect(text).not.toContain(foreign);
    expect(body.input.filter((item: Json) => item.type === "reasoning")).toEqual([]);
    // Claude's turn, in order: its thinking as plain assistant text, its text, its two calls.
    const claudeItems = body.input.slice(2, 6);
    expect(claudeItems).toEqual([
      { role: "assistant", content: CLAUDE_THINKING },
      { role: "assistant", content: "Let me read the test and run it." },
      {
        type: "function_call",
        call_id: CLAUDE_READ_ID,
        id: expect.stringMatching(/^fc_/),
        name: "read",
        arguments: '{"path":"tests/login.test.ts"}',
      },
      {
        type: "function_call",
        call_id: CLAUDE_BASH_ID,
        id: expect.stringMatching(/^fc_/),
        name: "bash",
        arguments: '{"command":"npm test -- login"}',
      },
    ]);
    const outputs = body.input.filter((item: Json) => item.type === "function_call_output");
    expect(outputs.map((o: Json) => o.call_id)).toEqual([CLAUDE_READ_ID, CLAUDE_BASH_ID]);
    // A vision model still gets both screenshots: the user's, and the tool's inside its output.
    expect(body.input[1].content.map((p: Json) => p.type)).toEqual(["input_text", "input_image"]);
    expect(outputs[1].output.map((p: Json) => p.type)).toEqual(["input_text", "input_image"]);

    expect(turn.types.at(-1)).toBe("done");
    gptTurn = turn.message;
    expect(gptTurn).toMatchObject({
      api: "openai-responses",
      provider: "openai",
      model: "gpt-5-mini",
      stopReason: "toolUse",
    });
    expect(gptTurn.content.map((b) => b.type)).toEqual(["thinking", "text", "toolCall", "toolCall"]);
    const reasoning = gptTurn.content[0] as ThinkingContent;
    expect(reasoning.thinking).toBe(GPT_REASONING_SUMMARY);
    expect(JSON.parse(reasoning.thinkingSignature!)).toMatchObject({
      type: "reasoning",
      id: GPT_REASONING_ID,
      encrypted_content: GPT_ENCRYPTED_REASONING,
    });
    expect(gptTurn.content[1]).toEqual({ type: "text", text: GPT_TEXT, textSignature: GPT_MESSAGE_ID });
    expect(toolCalls(gptTurn).map((c) => c.id)).toEqual([
      `${GPT_GREP.callId}|${GPT_GREP.itemId}`,
      `${GPT_READ.callId}|${GPT_READ.itemId}`,
    ]);
    expect(gptTurn.usage.output).toBe(240);
    expect(gptTurn.usage.cost.total).toBeGreaterThan(0);

    history.push(gptTurn);
    // Only grep returns; the read is left without a result when the user moves on.
    history.push(
      toolResult(toolCalls(gptTurn)[0]!, [
        { type: "text", text: "src/middleware/session.ts:12: export function requireSession(" },
      ]),
    );
    history.push(user("Skip that read. Switch to DeepSeek."));
  });

  it("3. DeepSeek (Chat Completions, text only) gets notes for images, short ids, a synthetic result for the orphaned read; an aborted attempt is dropped", async () => {
    // The user aborts the first attempt while DeepSeek is still reasoning.
    const controller = new AbortController();
    const gone = server.clientGone();
    server.enqueue({ sse: DEEPSEEK_ABORTED_TURN, stallAfter: DEEPSEEK_ABORTED_STALL });
    const aborted = await converse(
      providers,
      deepseekModel(server.url),
      context(),
      { signal: controller.signal },
      (event) => {
        if (event.type === "thinking_delta") controller.abort();
      },
    );
    await gone;
    expect(aborted.message.stopReason).toBe("aborted");
    history.push(aborted.message);
    history.push(user("Go on."));

    server.enqueue({ sse: DEEPSEEK_TOOL_TURN });
    const turn = await converse(providers, deepseekModel(server.url), context());
    const { path, body } = lastRequest();
    expect(path).toBe("/v1/chat/completions");
    expect(completionsProblems(body, { textOnly: true })).toEqual([]);
    const text = JSON.stringify(body);
    for (const foreign of [
      CLAUDE_SIGNATURE,
      CLAUDE_REDACTED,
      GPT_ENCRYPTED_REASONING,
      GPT_REASONING_ID,
      GPT_MESSAGE_ID,
      GPT_GREP.itemId,
      "Abandoned line of thought",
      CLAUDE_DROPPED_TEXT,
    ]) {
      expect(text).not.toContain(foreign);
    }
    expect(text).not.toContain("image_url");
    const messages = body.messages as Json[];
    expect(messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "user",
      "assistant",
      "tool",
      "tool",
      "user",
      "user",
    ]);
    expect(messages[1].content).toEqual([
      { type: "text", text: "The login test fails. Here is the screenshot." },
      { type: "text", text: USER_IMAGE_NOTE },
    ]);
    // Claude's turn: thinking as text ahead of its text, calls under their own (valid) ids.
    expect(messages[2]).toMatchObject({ content: `${CLAUDE_THINKING}\n\nLet me read the test and run it.` });
    expect(messages[2].tool_calls.map((c: Json) => c.id)).toEqual([CLAUDE_READ_ID, CLAUDE_BASH_ID]);
    expect(messages[4]).toEqual({
      role: "tool",
      tool_call_id: CLAUDE_BASH_ID,
      content: `FAIL tests/login.test.ts: expected 200, got 302\n${TOOL_IMAGE_NOTE}`,
    });
    // GPT's turn: reasoning summary as text; `call|fc_` ids cut to the call id; the orphan answered with an error.
    expect(messages[6].content).toBe(`${GPT_REASONING_SUMMARY}\n\n${GPT_TEXT}`);
    expect(messages[6].tool_calls.map((c: Json) => c.id)).toEqual([GPT_GREP.callId, GPT_READ.callId]);
    expect(messages[7]).toMatchObject({
      tool_call_id: GPT_GREP.callId,
      content: expect.stringContaining("requireSession"),
    });
    expect(messages[8]).toMatchObject({
      tool_call_id: GPT_READ.callId,
      content: expect.stringMatching(SYNTHETIC_RESULT),
    });
    // No other model's thinking rides in DeepSeek's reasoning field.
    expect(messages.filter((m) => m.role === "assistant").map((m) => m.reasoning_content)).toEqual(["", ""]);

    expect(turn.types.at(-1)).toBe("done");
    deepseekTurn = turn.message;
    expect(deepseekTurn).toMatchObject({
      api: "openai-completions",
      provider: "deepseek",
      model: "deepseek-reasoner",
      stopReason: "toolUse",
    });
    expect(deepseekTurn.content).toEqual([
      { type: "thinking", thinking: DEEPSEEK_REASONING, thinkingSignature: "reasoning_content" },
      { type: "text", text: "The cookie is marked secure." },
      { type: "toolCall", id: DEEPSEEK_CALL_ID, name: "edit", arguments: JSON.parse(DEEPSEEK_EDIT_ARGS) },
    ]);
    expect(deepseekTurn.usage.input).toBe(2300);
    history.push(deepseekTurn);
    history.push(toolResult(toolCalls(deepseekTurn)[0]!, [{ type: "text", text: "Edited src/middleware/session.ts" }]));
    history.push(user("Now let Gemini check it."));
  });

  it("4. Gemini gets every other model's thinking as text, no foreign signatures, and each call answered by name", async () => {
    server.enqueue({ sse: GEMINI_TOOL_TURN });
    const turn = await converse(providers, geminiModel(server.url), context());
    const { path, body } = lastRequest();
    expect(path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(geminiProblems(body)).toEqual([]);
    const text = JSON.stringify(body);
    for (const foreign of [
      CLAUDE_SIGNATURE,
      CLAUDE_REDACTED,
      GPT_ENCRYPTED_REASONING,
      "reasoning_content",
      "Abandoned line of thought",
      CLAUDE_DROPPED_TEXT,
    ])
      expect(text).not.toContain(foreign);
    const contents = body.contents as Json[];
    const parts = contents.flatMap((c) => c.parts as Json[]);
    expect(parts.filter((p) => p.thought === true || p.thoughtSignature !== undefined)).toEqual([]);
    expect(parts.filter((p) => p.functionCall !== undefined).map((p) => p.functionCall.name)).toEqual([
      "read",
      "bash",
      "grep",
      "read",
      "edit",
    ]);
    // Other models' thinking arrives as plain text parts.
    for (const thought of [CLAUDE_THINKING, GPT_REASONING_SUMMARY, DEEPSEEK_REASONING])
      expect(parts).toContainEqual({ text: thought });
    // Gemini accepts images: the user's screenshot inline, the tool's in a user turn after the responses.
    expect(contents[0].parts[1]).toEqual({ inlineData: { mimeType: "image/png", data: PNG } });
    const responses = parts.filter((p) => p.functionResponse !== undefined).map((p) => p.functionResponse);
    expect(responses.map((r: Json) => [r.name, Object.keys(r.response)[0]])).toEqual([
      ["read", "output"],
      ["bash", "error"],
      ["grep", "output"],
      ["read", "error"],
      ["edit", "output"],
    ]);
    expect(responses[3].response.error).toMatch(SYNTHETIC_RESULT);

    expect(turn.types.at(-1)).toBe("done");
    geminiTurn = turn.message;
    expect(geminiTurn).toMatchObject({
      api: "google-generative-ai",
      provider: "google",
      model: "gemini-2.5-flash",
      stopReason: "toolUse",
    });
    expect(geminiTurn.content.map((b) => b.type)).toEqual(["thinking", "text", "toolCall"]);
    expect((geminiTurn.content[0] as ThinkingContent).thinking).toBe(GEMINI_THOUGHT);
    expect(toolCalls(geminiTurn)[0]).toMatchObject({
      name: "bash",
      arguments: { command: "npm test -- login" },
      thoughtSignature: GEMINI_CALL_SIGNATURE,
    });
    history.push(geminiTurn);
    history.push(toolResult(toolCalls(geminiTurn)[0]!, [{ type: "text", text: "PASS tests/login.test.ts" }]));
    history.push(user("Back to Claude to wrap up."));
  });

  it("5. back on Claude: its own signed and redacted thinking replayed, everything foreign as text, every id valid and answered", async () => {
    server.enqueue({ sse: CLAUDE_WRAP_UP });
    const turn = await converse(providers, claudeModel(server.url), context());
    const { path, body } = lastRequest();
    expect(path).toBe("/v1/messages");
    expect(anthropicProblems(body)).toEqual([]);
    const text = JSON.stringify(body);
    for (const foreign of [
      GPT_ENCRYPTED_REASONING,
      GEMINI_CALL_SIGNATURE,
      "Abandoned line of thought",
      CLAUDE_DROPPED_TEXT,
    ])
      expect(text).not.toContain(foreign);
    const messages = body.messages as Json[];
    const assistants = messages.filter((m) => m.role === "assistant");
    expect(assistants).toHaveLength(4);
    // Claude's own turn comes back exactly: signed thinking, redacted thinking, text, both calls.
    expect(assistants[0].content).toEqual([
      { type: "thinking", thinking: CLAUDE_THINKING, signature: CLAUDE_SIGNATURE },
      { type: "redacted_thinking", data: CLAUDE_REDACTED },
      { type: "text", text: "Let me read the test and run it." },
      { type: "tool_use", id: CLAUDE_READ_ID, name: "read", input: { path: "tests/login.test.ts" } },
      { type: "tool_use", id: CLAUDE_BASH_ID, name: "bash", input: { command: "npm test -- login" } },
    ]);
    // The others: no thinking blocks, their reasoning as text, their ids rewritten to Anthropic's rule.
    for (const message of assistants.slice(1))
      expect(message.content.filter((b: Json) => b.type === "thinking" || b.type === "redacted_thinking")).toEqual([]);
    expect(assistants[1].content[0]).toEqual({ type: "text", text: GPT_REASONING_SUMMARY });
    expect(assistants[2].content[0]).toEqual({ type: "text", text: DEEPSEEK_REASONING });
    expect(assistants[3].content[0]).toEqual({ type: "text", text: GEMINI_THOUGHT });
    const gptIds = assistants[1].content.filter((b: Json) => b.type === "tool_use").map((b: Json) => b.id as string);
    expect(gptIds).toHaveLength(2);
    for (const id of gptIds) expect(id).not.toContain("|");
    expect(gptIds[0]).not.toBe(gptIds[1]);
    // The orphaned read is answered with an error result under its rewritten id.
    const gptResults = messages[messages.indexOf(assistants[1]) + 1].content as Json[];
    expect(gptResults.map((b) => [b.tool_use_id, b.is_error])).toEqual([
      [gptIds[0], false],
      [gptIds[1], true],
    ]);
    expect(gptResults[1].content[0].text).toMatch(SYNTHETIC_RESULT);
    // Claude accepts images again: the screenshot is back in the user turn and in bash's result.
    expect(messages[0].content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: PNG },
    });
    expect((messages[2].content as Json[])[1].content.map((b: Json) => b.type)).toEqual(["text", "image"]);

    expect(turn.types.at(-1)).toBe("done");
    expect(turn.message).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "The test passes now: the middleware keeps the session." }],
    });
    // Five answered requests, one dropped and one aborted attempt: nothing was retried or sent twice.
    expect(server.requests.map((r) => r.path)).toEqual([
      "/v1/messages",
      "/v1/messages",
      "/v1/responses",
      "/v1/chat/completions",
      "/v1/chat/completions",
      "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      "/v1/messages",
    ]);
  });
});
