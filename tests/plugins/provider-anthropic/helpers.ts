/**
 * Shared set-up for the provider-anthropic tests: a kernel booted with the real plugin, the provider's
 * stable handle, a Claude model pointed at the mock server, and a collector for stream events.
 */
import {
  AiProviderContract,
  type AiProvider,
  type AssistantMessage,
  type AssistantMessageEvent,
  type AssistantStream,
  type Model,
  type RetryPolicy,
} from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import plugin from "../../../plugins/ai/provider-anthropic/index.js";

/** Retries with no real waiting, so retry tests stay fast and deterministic. */
export const FAST_RETRY: RetryPolicy = { enabled: true, maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1 };

/** A Claude model (reasoning, images, $3 / $15 / $0.30 / $3.75 per million tokens) at `baseUrl`. */
export function claudeModel(baseUrl: string, overrides: Partial<Model> = {}): Model {
  return {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200_000,
    maxTokens: 64_000,
    ...overrides,
  };
}

/** Boots a kernel with provider-anthropic and returns its `anthropic-messages` handle. */
export async function bootAnthropic(): Promise<{ kernel: Kernel; provider: Handle<AiProvider> }> {
  const kernel = new Kernel();
  const result = await kernel.boot([
    { id: "provider-anthropic", source: { kind: "inline", label: "provider-anthropic", definition: plugin } },
  ]);
  if (result.errors.length > 0) throw new Error(`boot failed: ${JSON.stringify(result.errors)}`);
  const provider = kernel
    .useAll(AiProviderContract)
    .list()
    .find((handle) => handle.peek()?.api === "anthropic-messages");
  if (provider === undefined) throw new Error("provider-anthropic booted but provides no anthropic-messages handle");
  return { kernel, provider };
}

/** Everything a stream produced: the events, their types in order, and the final message. */
export interface Collected {
  events: AssistantMessageEvent[];
  types: string[];
  result: AssistantMessage;
}

/** Drains a stream; `onEvent` may react to an event (e.g. abort after the first delta). */
export async function collect(
  stream: AssistantStream,
  onEvent?: (event: AssistantMessageEvent) => void,
): Promise<Collected> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    onEvent?.(event);
  }
  return { events, types: events.map((e) => e.type), result: await stream.result() };
}

/** A user message. */
export function user(text: string): { role: "user"; content: string; timestamp: number } {
  return { role: "user", content: text, timestamp: 1 };
}
