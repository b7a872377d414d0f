/**
 * The LLM router: the one way a plugin asks a model for an answer. It picks the provider plugin that
 * speaks the model's wire `api`, resolves the API key, holds the provider for the length of the stream
 * (so a provider reloaded mid-answer finishes it on its old code) and turns every failure into one
 * `error` event. Callers (the session, compaction, extensions) never look providers up themselves.
 */
import { defineContract } from "../../kernel/index.js";
import type { AssistantMessage, AssistantStream, Context, Model, StreamOptions } from "./types.js";

/** Streams answers for any model of the catalog. */
export interface Llm {
  /**
   * Streams one assistant message. `options.apiKey` wins over the stored key. Never throws and never
   * rejects: a missing provider, a missing key and every provider failure end the stream with an
   * `error` event (stopReason `error`, or `aborted` once `options.signal` fired).
   */
  stream(model: Model, context: Context, options?: StreamOptions): AssistantStream;
  /** `stream` to its end: the final message, whose stopReason says whether it failed. */
  complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage>;
  /** Why `model` cannot be called now (no provider speaks its api, no key), or undefined when it can. */
  problem(model: Model): Promise<string | undefined>;
  /** The catalog's models that can be called now: a provider speaks their api and a key is there (or none is needed). */
  available(): Promise<Model[]>;
}

/**
 * One router per host; stateless, so a reload never waits. 1.1: a request span (`pi.ai.request`) under
 * `options.telemetry`, handed on to the provider as its `options.telemetry`.
 */
export const LlmContract = defineContract<Llm>({
  id: "ai/llm",
  version: "1.1.0",
  kind: "single",
  gate: "overlap",
  shape: { stream: "function", complete: "function", problem: "function", available: "function" },
  methods: { stream: "sync", complete: "async", problem: "async", available: "async" },
});
