/**
 * Shared set-up for the provider-openai tests: boots the plugin in a real Kernel, finds a slot by its
 * api, runs a stream to its end and records every event, and builds models that point at the mock.
 */
import { AiProviderContract } from "../../../contracts/ai/index.js";
import type {
  AiProvider,
  AssistantMessage,
  AssistantMessageEvent,
  Context,
  Model,
  RetryPolicy,
  StreamOptions,
} from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import plugin from "../../../plugins/ai/provider-openai/index.js";

/** Retries with delays short enough for tests. */
export const FAST_RETRY: RetryPolicy = { enabled: true, maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 };

/** A booted kernel and the handle of one of the plugin's slots. */
export interface BootedProvider {
  kernel: Kernel;
  handle: Handle<AiProvider>;
}

/** Boots the plugin and returns the slot that speaks `api`. */
export async function bootProvider(api: "openai-completions" | "openai-responses"): Promise<BootedProvider> {
  const kernel = new Kernel();
  const result = await kernel.boot([
    { id: "provider-openai", source: { kind: "inline", label: "provider-openai", definition: plugin } },
  ]);
  if (result.errors.length > 0) throw new Error(`boot failed: ${JSON.stringify(result.errors)}`);
  const handle = kernel
    .useAll(AiProviderContract)
    .list()
    .find((h) => h.peek()?.api === api);
  if (handle === undefined) throw new Error(`no slot speaks ${api}`);
  return { kernel, handle };
}

/** Everything one stream produced. */
export interface StreamRun {
  events: AssistantMessageEvent[];
  types: string[];
  message: AssistantMessage;
  /** For each toolcall_delta: the parsed arguments of its block right after that delta. */
  argumentSnapshots: Array<{ contentIndex: number; arguments: string }>;
}

/**
 * Calls `stream` through the handle and drains it. Fails the test if `stream` throws or the result
 * rejects, which a provider must never do.
 */
export async function runStream(
  handle: Handle<AiProvider>,
  model: Model,
  context: Context,
  options: StreamOptions = {},
  onEvent?: (event: AssistantMessageEvent) => void,
): Promise<StreamRun> {
  const stream = handle.call("stream", model, context, { apiKey: "sk-test", retry: FAST_RETRY, ...options });
  const events: AssistantMessageEvent[] = [];
  const argumentSnapshots: StreamRun["argumentSnapshots"] = [];
  for await (const event of stream) {
    events.push(event);
    if (event.type === "toolcall_delta") {
      const block = event.partial.content[event.contentIndex];
      argumentSnapshots.push({
        contentIndex: event.contentIndex,
        arguments: JSON.stringify(block?.type === "toolCall" ? block.arguments : null),
      });
    }
    onEvent?.(event);
  }
  const message = await stream.result();
  return { events, types: events.map((e) => e.type), message, argumentSnapshots };
}

/** A Chat Completions model served by the mock at `url` (OpenAI's own API unless overridden). */
export function completionsModel(url: string, overrides: Partial<Model> = {}): Model {
  return {
    id: "gpt-4o-mini",
    name: "GPT-4o mini",
    api: "openai-completions",
    provider: "openai",
    baseUrl: `${url}/v1`,
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    contextWindow: 128_000,
    maxTokens: 16_384,
    ...overrides,
  };
}

/** A Responses API model served by the mock at `url`. */
export function responsesModel(url: string, overrides: Partial<Model> = {}): Model {
  return {
    id: "gpt-5-mini",
    name: "GPT-5 mini",
    api: "openai-responses",
    provider: "openai",
    baseUrl: `${url}/v1`,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    contextWindow: 400_000,
    maxTokens: 128_000,
    ...overrides,
  };
}

/** A one-message user context. */
export function ask(text: string, systemPrompt?: string): Context {
  return { systemPrompt, messages: [{ role: "user", content: text, timestamp: 1 }] };
}

/** The event types of a text block streamed in `count` deltas. */
export function textEvents(count: number): string[] {
  return ["text_start", ...Array<string>(count).fill("text_delta"), "text_end"];
}
