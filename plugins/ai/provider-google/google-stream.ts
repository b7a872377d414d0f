/**
 * One streamed Gemini answer, top to bottom: build the request, open the stream through the official
 * SDK (loaded only now, in client.ts, so runs that never use Gemini never load it), turn chunks into
 * events, retry transient failures while nothing has reached the consumer, and end with exactly one
 * `done` or `error`. The Gemini API and Vertex AI differ only in how the client is made. Never throws:
 * every failure becomes the final message's `errorMessage`.
 */
import type { GenerateContentParameters } from "@google/genai";
import {
  AssistantEventStream,
  newAssistantMessage,
  noteRetryAfter,
  RequestGuard,
  requestLimits,
  withRetry,
  type AssistantMessage,
  type AssistantStream,
  type Context,
  type Model,
  type StreamOptions,
} from "pi-host";
import { type ClientAuth, createGenAIClient } from "./client.js";
import { GoogleRequestError, toRequestError } from "./errors.js";
import { buildRequest } from "./request.js";
import { TurnBuilder } from "./turn-builder.js";
import { VERTEX_API, vertexSetup } from "./vertex-config.js";
import { WireTap } from "./wire-tap.js";

/** The wire protocol this provider speaks. */
export const GOOGLE_API = "google-generative-ai";

/** Where Google's own key comes from when the caller passes none (the variables pi reads for Gemini). */
const API_KEY_VARIABLES = ["GEMINI_API_KEY", "GOOGLE_API_KEY"] as const;

/** Streams one assistant message from Gemini (the Gemini API, or Vertex AI for a "google-vertex" model). */
export function streamGoogle(model: Model, context: Context, options: StreamOptions = {}): AssistantStream {
  const events = new AssistantEventStream();
  const message = newAssistantMessage(model, model.api === VERTEX_API ? VERTEX_API : GOOGLE_API);
  void run(model, context, options, events, message).catch((error: unknown) => fail(events, message, options, error));
  return events;
}

async function run(
  model: Model,
  context: Context,
  options: StreamOptions,
  events: AssistantEventStream,
  message: AssistantMessage,
): Promise<void> {
  const auth: ClientAuth =
    model.api === VERTEX_API
      ? { kind: "vertex", setup: vertexSetup(model, options.apiKey, process.env) }
      : { kind: "gemini", apiKey: resolveApiKey(model, options) };

  let params = buildRequest(model, context, options);
  const replaced = await options.onPayload?.(params, model);
  if (replaced !== undefined) params = replaced as GenerateContentParameters;

  const wire = new WireTap();
  const client = await createGenAIClient(model, options, auth, wire.fetch);
  // Per attempt: the guard's signal (linked to the caller's, cut on a stall) goes to the SDK.
  const requestFor = (guard: RequestGuard): GenerateContentParameters => ({
    ...params,
    config: {
      ...params.config,
      abortSignal: guard.signal,
      // The SDK would otherwise re-send the request on its own after a drop; retries are ours to decide.
      automaticContinuation: false,
      automaticFunctionCalling: { disable: true },
    },
  });

  const turn = new TurnBuilder(model, message, events);
  let started = false;
  await withRetry(
    options.retry,
    options.signal,
    async () => {
      const guard = new RequestGuard(options.signal, requestLimits(options));
      wire.reset(guard.fetch);
      turn.resetForRetry();
      try {
        const chunks = await client.models.generateContentStream(requestFor(guard));
        if (!started) {
          started = true;
          events.push({ type: "start", partial: message });
        }
        for await (const chunk of chunks) turn.accept(chunk);
      } catch (error) {
        guard.throwIfFailed();
        throw toRequestError(error, wire);
      } finally {
        guard.close();
      }
      guard.throwIfFailed();
    },
    () => !turn.emittedContent,
  );
  if (options.signal?.aborted) throw new Error("Request was aborted");
  const reason = turn.finish();
  message.stopReason = reason;
  events.push({ type: "done", reason, message });
}

/**
 * The caller's key, else (for Google itself only) the environment: a custom provider that speaks this
 * API, such as a proxy, must never be handed the user's Google key.
 */
function resolveApiKey(model: Model, options: StreamOptions): string {
  if (options.apiKey) return options.apiKey;
  if (model.provider === "google") {
    for (const name of API_KEY_VARIABLES) {
      const value = process.env[name];
      if (value) return value;
    }
    throw new GoogleRequestError(`No API key for provider "google": pass --api-key or set ${API_KEY_VARIABLES[0]}`, {});
  }
  throw new GoogleRequestError(
    `No API key for provider "${model.provider}": pass --api-key or add one for it to auth.json`,
    {},
  );
}

function fail(events: AssistantEventStream, message: AssistantMessage, options: StreamOptions, error: unknown): void {
  const aborted = options.signal?.aborted === true;
  message.stopReason = aborted ? "aborted" : "error";
  const text = error instanceof Error ? error.message : String(error);
  message.errorMessage = aborted ? "Request was aborted" : noteRetryAfter(message, text, error, options.retry);
  events.push({ type: "error", reason: message.stopReason, error: message });
}
