/**
 * Shared set-up for the cross-provider tests: a kernel running the three real provider plugins (four
 * wire protocols), one model per protocol pointed at a MockLlmServer, and a runner that drains a stream
 * through the provider's stable handle.
 */
import { Type } from "@sinclair/typebox";
import {
  AiProviderContract,
  type AiProvider,
  type AssistantMessage,
  type AssistantMessageEvent,
  type AssistantStream,
  type Context,
  type Model,
  type RetryPolicy,
  type StreamOptions,
  type ToolSpec,
} from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import anthropicPlugin from "../../../plugins/ai/provider-anthropic/index.js";
import googlePlugin from "../../../plugins/ai/provider-google/index.js";
import openaiPlugin from "../../../plugins/ai/provider-openai/index.js";

/** No retries: every scripted answer is used exactly once, so a retry would be a bug showing. */
export const NO_RETRY: RetryPolicy = { enabled: false, maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 };

/** The four wire protocols. */
export type WireApi = "anthropic-messages" | "openai-responses" | "openai-completions" | "google-generative-ai";

/** A kernel with provider-anthropic, provider-openai and provider-google, and a handle per protocol. */
export interface Providers {
  kernel: Kernel;
  handle(api: WireApi): Handle<AiProvider>;
}

/** Boots the three provider plugins from source, as one distribution. */
export async function bootProviders(): Promise<Providers> {
  const kernel = new Kernel();
  const result = await kernel.boot([
    { id: "provider-anthropic", source: { kind: "inline", label: "provider-anthropic", definition: anthropicPlugin } },
    { id: "provider-openai", source: { kind: "inline", label: "provider-openai", definition: openaiPlugin } },
    { id: "provider-google", source: { kind: "inline", label: "provider-google", definition: googlePlugin } },
  ]);
  if (result.errors.length > 0) throw new Error(`boot failed: ${JSON.stringify(result.errors)}`);
  return {
    kernel,
    handle(api) {
      const found = kernel
        .useAll(AiProviderContract)
        .list()
        .find((h) => h.peek()?.api === api);
      if (found === undefined) throw new Error(`no provider plugin speaks ${api}`);
      return found;
    },
  };
}

function model(
  fields: Pick<
    Model,
    "id" | "name" | "api" | "provider" | "baseUrl" | "input" | "cost" | "contextWindow" | "maxTokens"
  >,
): Model {
  return { reasoning: true, ...fields };
}

/** Claude Sonnet 4.5 on the Messages API. */
export const claudeModel = (url: string): Model =>
  model({
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: url,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200_000,
    maxTokens: 64_000,
  });

/** GPT-5 mini on the Responses API. */
export const gptModel = (url: string): Model =>
  model({
    id: "gpt-5-mini",
    name: "GPT-5 mini",
    api: "openai-responses",
    provider: "openai",
    baseUrl: `${url}/v1`,
    input: ["text", "image"],
    cost: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
    contextWindow: 400_000,
    maxTokens: 128_000,
  });

/** DeepSeek's reasoner on Chat Completions: text only, reasoning in `reasoning_content`. */
export const deepseekModel = (url: string): Model =>
  model({
    id: "deepseek-reasoner",
    name: "DeepSeek Reasoner",
    api: "openai-completions",
    provider: "deepseek",
    baseUrl: `${url}/v1`,
    input: ["text"],
    cost: { input: 0.56, output: 1.68, cacheRead: 0.07, cacheWrite: 0 },
    contextWindow: 128_000,
    maxTokens: 64_000,
  });

/** Gemini 2.5 Flash on the Generative AI API. */
export const geminiModel = (url: string): Model =>
  model({
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    api: "google-generative-ai",
    provider: "google",
    baseUrl: `${url}/v1beta`,
    input: ["text", "image"],
    cost: { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 },
    contextWindow: 1_048_576,
    maxTokens: 65_536,
  });

/** The coding tools every request offers. */
export const TOOLS: ToolSpec[] = [
  { name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) },
  { name: "bash", description: "Run a shell command", parameters: Type.Object({ command: Type.String() }) },
  {
    name: "grep",
    description: "Search file contents",
    parameters: Type.Object({ pattern: Type.String(), path: Type.Optional(Type.String()) }),
  },
  {
    name: "edit",
    description: "Replace text in a file",
    parameters: Type.Object({ path: Type.String(), oldText: Type.String(), newText: Type.String() }),
  },
];

/** Everything one stream produced. */
export interface Turn {
  types: string[];
  message: AssistantMessage;
}

/** Drains a stream; `onEvent` may act on events as they arrive (e.g. abort). */
export async function drain(stream: AssistantStream, onEvent?: (event: AssistantMessageEvent) => void): Promise<Turn> {
  const types: string[] = [];
  for await (const event of stream) {
    types.push(event.type);
    onEvent?.(event);
  }
  return { types, message: await stream.result() };
}

/** Streams `context` to `model` through the provider handle of its API and drains the answer. */
export function converse(
  providers: Providers,
  model: Model,
  context: Context,
  options: StreamOptions = {},
  onEvent?: (event: AssistantMessageEvent) => void,
): Promise<Turn> {
  const stream = providers
    .handle(model.api as WireApi)
    .call("stream", model, context, { apiKey: "test-key", retry: NO_RETRY, reasoning: "high", ...options });
  return drain(stream, onEvent);
}
