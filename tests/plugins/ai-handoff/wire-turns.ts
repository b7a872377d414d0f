/**
 * The scripted answers of the handoff conversation, each in its API's recorded wire format: Claude
 * thinking (signed) and redacted thinking before two tool_use calls; GPT-5 mini on the Responses API with
 * an encrypted reasoning item, a message and two function calls; DeepSeek on Chat Completions with
 * `reasoning_content` and a `call_00_…` tool call; Gemini with a thought summary and a signed function
 * call. The envelopes of the OpenAI formats come from tests/fixtures/sse; the other two are spelled out
 * here as their APIs stream them.
 */
import type { SseEvent } from "../../support/mock-llm-server.js";
import { DONE, deltaChunk, usageChunk, type Completion } from "../../fixtures/sse/openai-completions/envelope.js";
import {
  functionCallItem,
  messageItem,
  pieces,
  responseStream,
  type OutputItem,
} from "../../fixtures/sse/openai-responses/envelope.js";

/** A 1×1 PNG: the screenshot the user attached and the one the bash tool returned. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

// ── Anthropic Messages ────────────────────────────────────────────────────────────────────────────

/** One content block of a scripted Messages answer. */
export type ClaudeBlock =
  | { type: "thinking"; deltas: string[]; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "text"; deltas: string[] }
  | { type: "tool_use"; id: string; name: string; json: string[] };

/** A whole Messages stream: message_start, each block start/deltas/stop, message_delta, message_stop. */
export function claudeStream(
  messageId: string,
  blocks: ClaudeBlock[],
  stopReason: string,
  usage: { input: number; output: number },
): SseEvent[] {
  const event = (type: string, fields: Record<string, unknown>): SseEvent => ({
    event: type,
    data: { type, ...fields },
  });
  const events: SseEvent[] = [
    event("message_start", {
      message: {
        id: messageId,
        type: "message",
        role: "assistant",
        content: [],
        model: "claude-sonnet-4-5-20250929",
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    }),
  ];
  blocks.forEach((block, index) => {
    const delta = (fields: Record<string, unknown>): void =>
      void events.push(event("content_block_delta", { index, delta: fields }));
    if (block.type === "thinking") {
      events.push(
        event("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } }),
      );
      for (const thinking of block.deltas) delta({ type: "thinking_delta", thinking });
      delta({ type: "signature_delta", signature: block.signature });
    } else if (block.type === "redacted_thinking") {
      events.push(
        event("content_block_start", { index, content_block: { type: "redacted_thinking", data: block.data } }),
      );
    } else if (block.type === "text") {
      events.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
      for (const text of block.deltas) delta({ type: "text_delta", text });
    } else {
      events.push(
        event("content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
      );
      for (const partial_json of block.json) delta({ type: "input_json_delta", partial_json });
    }
    events.push(event("content_block_stop", { index }));
    if (index === 0) events.push(event("ping", {}));
  });
  events.push(
    event("message_delta", {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
  );
  events.push(event("message_stop", {}));
  return events;
}

export const CLAUDE_THINKING = "The login test fails on a 302. I should read the test and run it to see the redirect.";
export const CLAUDE_SIGNATURE = "EqQBCgIYAhIMHandoffSignatureAAAAGgxDaGVja2luZyBsb2dpbiIwm9K1HB+UtTdpaQ==";
export const CLAUDE_REDACTED =
  "EmwKAhgBEgyHandoffRedactedPayloadLafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGm";
export const CLAUDE_READ_ID = "toolu_01HandoffRead7kLmN2pQ4rS6t";
export const CLAUDE_BASH_ID = "toolu_01HandoffBash8uVwX3yZ5aB7c";

/** Turn 1 (Claude): thinks, says what it will do, reads the test and runs it. */
export const CLAUDE_TOOL_TURN = claudeStream(
  "msg_01HandoffClaudeTools000001",
  [
    {
      type: "thinking",
      deltas: [CLAUDE_THINKING.slice(0, 40), CLAUDE_THINKING.slice(40)],
      signature: CLAUDE_SIGNATURE,
    },
    { type: "redacted_thinking", data: CLAUDE_REDACTED },
    { type: "text", deltas: ["Let me read the test", " and run it."] },
    { type: "tool_use", id: CLAUDE_READ_ID, name: "read", json: ["", '{"pa', 'th": "tests/lo', 'gin.test.ts"}'] },
    { type: "tool_use", id: CLAUDE_BASH_ID, name: "bash", json: ["", '{"command": "npm', ' test -- login"}'] },
  ],
  "tool_use",
  { input: 1200, output: 180 },
);

/** Turn 2 (Claude): the connection drops after two deltas; the turn ends in an error. */
export const CLAUDE_DROPPED_TURN = claudeStream(
  "msg_01HandoffClaudeDropped0001",
  [{ type: "text", deltas: ["The redirect comes from", " the session middleware, so", " the fix is"] }],
  "end_turn",
  { input: 1500, output: 20 },
);
export const CLAUDE_DROPPED_AFTER = 4;
export const CLAUDE_DROPPED_TEXT = "The redirect comes from the session middleware, so";

/** Turn 7 (Claude again): the wrap-up. */
export const CLAUDE_WRAP_UP = claudeStream(
  "msg_01HandoffClaudeWrapUp00001",
  [{ type: "text", deltas: ["The test passes now:", " the middleware keeps the session."] }],
  "end_turn",
  { input: 2600, output: 24 },
);

// ── OpenAI Responses ──────────────────────────────────────────────────────────────────────────────

export const GPT_REASONING_SUMMARY = "**Finding the middleware**\n\nThe redirect must come from the session check.";
export const GPT_ENCRYPTED_REASONING =
  "gAAAAABooHandoffEncryptedReasoningQ2lRQjRjZXhUaG91Z2h0U2lnQQ7dQe9mVbWJc3Rk1Lx0pYtE4sF6hU8iN2oA5jM7qS9vB==";
export const GPT_REASONING_ID = "rs_68b0handoff0000000000000000000000000000000000000001";
export const GPT_MESSAGE_ID = "msg_68b0handoff000000000000000000000000000000000000002";
export const GPT_TEXT = "I'll search for the middleware and open it.";
export const GPT_GREP = {
  itemId: "fc_68b0handoff00000000000000000000000000000000000003",
  callId: "call_HandoffGrep4Xy7Zq1Wv3",
  name: "grep",
  arguments: '{"pattern":"requireSession","path":"src"}',
};
export const GPT_READ = {
  itemId: "fc_68b0handoff00000000000000000000000000000000000004",
  callId: "call_HandoffRead9Lm2Np5Qr8",
  name: "read",
  arguments: '{"path":"src/middleware/session.ts"}',
};

const gptReasoning: OutputItem = {
  type: "reasoning",
  id: GPT_REASONING_ID,
  summary: [{ type: "summary_text", text: GPT_REASONING_SUMMARY }],
  encrypted_content: GPT_ENCRYPTED_REASONING,
};

/** Turn 3 (GPT-5 mini): reasoning, a sentence, then grep and read in parallel. */
export const GPT_TOOL_TURN = responseStream(
  {
    id: "resp_68b0handoff00000000000000000000000000000000000005",
    model: "gpt-5-mini-2025-08-07",
    createdAt: 1756500000,
    reasoning: { effort: "high", summary: "detailed" },
    usage: {
      input_tokens: 1900,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 240,
      output_tokens_details: { reasoning_tokens: 160 },
      total_tokens: 2140,
    },
  },
  [
    { item: gptReasoning, deltas: [pieces(GPT_REASONING_SUMMARY, 18)] },
    { item: messageItem(GPT_MESSAGE_ID, GPT_TEXT), deltas: [pieces(GPT_TEXT, 10)] },
    {
      item: functionCallItem(GPT_GREP.itemId, GPT_GREP.callId, GPT_GREP.name, GPT_GREP.arguments),
      deltas: [pieces(GPT_GREP.arguments, 7)],
    },
    {
      item: functionCallItem(GPT_READ.itemId, GPT_READ.callId, GPT_READ.name, GPT_READ.arguments),
      deltas: [pieces(GPT_READ.arguments, 7)],
    },
  ],
);

// ── OpenAI Chat Completions (DeepSeek) ────────────────────────────────────────────────────────────

const deepseek: Completion = {
  id: "7c1d2e3f-handoff-4a5b-8c9d-0e1f2a3b4c5d",
  model: "deepseek-reasoner",
  created: 1756500100,
  systemFingerprint: "fp_handoff_prod0820",
};
export const DEEPSEEK_REASONING = "The grep found requireSession; the read never ran. I should edit the cookie check.";
export const DEEPSEEK_CALL_ID = "call_00_HandoffEditR2d2C3po4Bb8";
export const DEEPSEEK_EDIT_ARGS =
  '{"path":"src/middleware/session.ts","oldText":"secure: true","newText":"secure: isProduction"}';

/** Turn 5 (DeepSeek): reasoning_content, a sentence, then one edit call with its arguments in pieces. */
export const DEEPSEEK_TOOL_TURN: SseEvent[] = [
  deltaChunk(deepseek, { role: "assistant", content: null, reasoning_content: "" }),
  ...pieces(DEEPSEEK_REASONING, 20).map((reasoning_content) =>
    deltaChunk(deepseek, { content: null, reasoning_content }),
  ),
  ...["The cookie is ", "marked secure."].map((content) => deltaChunk(deepseek, { content, reasoning_content: null })),
  deltaChunk(deepseek, {
    tool_calls: [{ index: 0, id: DEEPSEEK_CALL_ID, type: "function", function: { name: "edit", arguments: "" } }],
  }),
  ...pieces(DEEPSEEK_EDIT_ARGS, 16).map((part) =>
    deltaChunk(deepseek, { tool_calls: [{ index: 0, function: { arguments: part } }] }),
  ),
  deltaChunk(deepseek, {}, "tool_calls"),
  usageChunk(deepseek, {
    prompt_tokens: 2300,
    completion_tokens: 120,
    total_tokens: 2420,
    prompt_tokens_details: { cached_tokens: 0 },
    prompt_cache_hit_tokens: 0,
    prompt_cache_miss_tokens: 2300,
  }),
  DONE,
];

/** Turn 4 (DeepSeek, aborted by the user): reasoning starts, then the server stalls. */
export const DEEPSEEK_ABORTED_TURN: SseEvent[] = [
  deltaChunk(deepseek, { role: "assistant", content: null, reasoning_content: "" }),
  deltaChunk(deepseek, { content: null, reasoning_content: "Abandoned line of thought" }),
  deltaChunk(deepseek, { content: null, reasoning_content: " that never finishes" }),
];
export const DEEPSEEK_ABORTED_STALL = 2;

// ── Google Generative AI ──────────────────────────────────────────────────────────────────────────

export const GEMINI_THOUGHT = "**Checking the edit**\n\nThe cookie change looks right; run the test once more.";
export const GEMINI_CALL_SIGNATURE = "Q2lRQjRjZXhIYW5kb2ZmU2lnRm9yQmFzaA==";

/** Turn 6 (Gemini): a thought summary, a sentence, then a signed bash call, over three chunks. */
export const GEMINI_TOOL_TURN: SseEvent[] = [
  geminiChunk("handoff-gemini-1", [{ text: GEMINI_THOUGHT, thought: true }]),
  geminiChunk("handoff-gemini-1", [{ text: "Running the test again." }]),
  geminiChunk(
    "handoff-gemini-1",
    [
      {
        functionCall: { name: "bash", args: { command: "npm test -- login" } },
        thoughtSignature: GEMINI_CALL_SIGNATURE,
      },
    ],
    {
      finishReason: "STOP",
      usageMetadata: {
        promptTokenCount: 2500,
        candidatesTokenCount: 30,
        thoughtsTokenCount: 90,
        totalTokenCount: 2620,
      },
    },
  ),
];

function geminiChunk(
  responseId: string,
  parts: unknown[],
  extra: { finishReason?: string; usageMetadata?: unknown } = {},
): SseEvent {
  const candidate: Record<string, unknown> = { content: { parts, role: "model" }, index: 0 };
  if (extra.finishReason) candidate.finishReason = extra.finishReason;
  return {
    data: {
      candidates: [candidate],
      usageMetadata: extra.usageMetadata ?? { promptTokenCount: 2500, totalTokenCount: 2500 },
      modelVersion: "gemini-2.5-flash",
      responseId,
    },
  };
}
