/**
 * The three SDK-backed providers side by side, each with a model pointed at the mock server and the
 * smallest SSE answer in its wire format, so one test can check a behaviour every provider must share.
 */
import type {
  AiProvider,
  AssistantMessage,
  AssistantMessageEvent,
  AssistantStream,
  Context,
  Model,
} from "../../../contracts/ai/index.js";
import { AnthropicProvider } from "../../../plugins/ai/provider-anthropic/provider.js";
import { createGoogleProvider } from "../../../plugins/ai/provider-google/provider.js";
import { openAICompletionsProvider } from "../../../plugins/ai/provider-openai/completions.js";
import type { SseEvent } from "../../support/mock-llm-server.js";

/** One provider under test. */
export interface ProviderCase {
  name: string;
  provider: AiProvider;
  model(url: string): Model;
  /** A streamed answer "Hi" in this wire format, first event first. */
  answer: SseEvent[];
  /** A streamed tool call whose arguments JSON text is `json` (complete or not). */
  toolCall(json: string): SseEvent[];
}

const base = {
  reasoning: false,
  input: ["text"] as Array<"text" | "image">,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100_000,
  maxTokens: 1_000,
};

const openaiChunk = (delta: unknown, finish: string | null = null): SseEvent => ({
  data: {
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-4o-mini",
    choices: [{ index: 0, delta, finish_reason: finish }],
  },
});

/** OpenAI Chat Completions, Anthropic Messages and Gemini. */
export const PROVIDERS: ProviderCase[] = [
  {
    name: "openai-completions",
    provider: openAICompletionsProvider,
    model: (url) => ({
      ...base,
      id: "gpt-4o-mini",
      name: "gpt",
      api: "openai-completions",
      provider: "openai",
      baseUrl: `${url}/v1`,
    }),
    answer: [openaiChunk({ role: "assistant", content: "Hi" }), openaiChunk({}, "stop"), { data: "[DONE]" }],
    toolCall: (json) => [
      openaiChunk({
        role: "assistant",
        tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "bash", arguments: "" } }],
      }),
      openaiChunk({ tool_calls: [{ index: 0, function: { arguments: json } }] }),
      openaiChunk({}, "tool_calls"),
      { data: "[DONE]" },
    ],
  },
  {
    name: "anthropic-messages",
    provider: new AnthropicProvider(),
    model: (url) => ({
      ...base,
      id: "claude-sonnet-4-5",
      name: "claude",
      api: "anthropic-messages",
      provider: "anthropic",
      baseUrl: url,
    }),
    answer: [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: "m1",
            type: "message",
            role: "assistant",
            content: [],
            model: "claude-sonnet-4-5",
            stop_reason: null,
            usage: { input_tokens: 1, output_tokens: 0 },
          },
        },
      },
      {
        event: "content_block_start",
        data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
      },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      {
        event: "message_delta",
        data: { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
      },
      { event: "message_stop", data: { type: "message_stop" } },
    ],
    toolCall: (json) => [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: "m1",
            type: "message",
            role: "assistant",
            content: [],
            model: "claude-sonnet-4-5",
            stop_reason: null,
            usage: { input_tokens: 1, output_tokens: 0 },
          },
        },
      },
      {
        event: "content_block_start",
        data: {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_1", name: "bash", input: {} },
        },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json } },
      },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      {
        event: "message_delta",
        data: { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 1 } },
      },
      { event: "message_stop", data: { type: "message_stop" } },
    ],
  },
  {
    name: "google-generative-ai",
    provider: createGoogleProvider(),
    model: (url) => ({
      ...base,
      id: "gemini-2.5-flash",
      name: "gemini",
      api: "google-generative-ai",
      provider: "google",
      baseUrl: `${url}/v1beta`,
    }),
    answer: [
      { data: { candidates: [{ content: { role: "model", parts: [{ text: "Hi" }] } }] } },
      { data: { candidates: [{ content: { role: "model", parts: [{ text: "!" }] }, finishReason: "STOP" }] } },
    ],
    // Gemini sends function-call arguments as parsed objects, never as JSON text.
    toolCall: () => [],
  },
];

/** A one-question context. */
export function ask(text: string): Context {
  return { messages: [{ role: "user", content: text, timestamp: 1 }] };
}

/** Everything a stream produced. */
export interface Drained {
  events: AssistantMessageEvent[];
  final: AssistantMessage;
}

/** Reads a stream to its end. */
export async function drain(stream: AssistantStream): Promise<Drained> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, final: await stream.result() };
}
