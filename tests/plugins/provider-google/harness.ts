/**
 * Shared set-up for the provider-google tests: a kernel running the plugin, a Gemini model pointed at
 * MockLlmServer, and a collector that drains a stream into its events and final message.
 */
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
} from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import plugin from "../../../plugins/ai/provider-google/index.js";

/** Retries without waiting, so retry tests stay fast and deterministic. */
export const FAST_RETRY: RetryPolicy = { enabled: true, maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 };

/** Boots a kernel with only provider-google and returns its provider handle. */
export async function bootGoogleProvider(): Promise<{ kernel: Kernel; provider: Handle<AiProvider> }> {
  const kernel = new Kernel();
  const result = await kernel.boot([
    { id: "provider-google", source: { kind: "inline", label: "provider-google", definition: plugin } },
  ]);
  if (result.errors.length > 0) throw new Error(`boot failed: ${JSON.stringify(result.errors)}`);
  const provider = kernel
    .useAll(AiProviderContract)
    .list()
    .find((h) => h.peek()?.api === "google-generative-ai");
  if (provider === undefined) throw new Error("provider-google did not register google-generative-ai");
  return { kernel, provider };
}

/** A Gemini model served by the mock at `serverUrl`. */
export function geminiModel(serverUrl: string, overrides: Partial<Model> = {}): Model {
  return {
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    api: "google-generative-ai",
    provider: "google",
    baseUrl: `${serverUrl}/v1beta`,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 },
    contextWindow: 1_048_576,
    maxTokens: 65_536,
    ...overrides,
  };
}

/** A one-question context. */
export function ask(question: string, extra: Partial<Context> = {}): Context {
  return { messages: [{ role: "user", content: question, timestamp: 1 }], ...extra };
}

/** Options every test starts from: a key and fast retries. */
export function baseOptions(extra: StreamOptions = {}): StreamOptions {
  return { apiKey: "test-key", retry: FAST_RETRY, ...extra };
}

/** Everything a stream produced. */
export interface Drained {
  events: AssistantMessageEvent[];
  types: string[];
  final: AssistantMessage;
}

/** Reads a stream to its end; `onEvent` may act on events as they arrive (e.g. abort). */
export async function drain(
  stream: AssistantStream,
  onEvent?: (event: AssistantMessageEvent) => void,
): Promise<Drained> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    onEvent?.(event);
  }
  const final = await stream.result();
  return { events, types: events.map((e) => e.type), final };
}
