/**
 * The "openai-completions" slot: OpenAI's Chat Completions API and every server that copies it.
 */
import type OpenAI from "openai";
import type { AiProvider, Context, Model, StreamOptions } from "pi-host";
import { azureTarget, isAzureModel } from "./azure-config.js";
import { resolveCompletionsCompat } from "./completions-compat.js";
import { consumeCompletionChunks, type CompletionChunk } from "./completions-events.js";
import {
  buildCompletionsBody,
  buildStreamedCompletionsBody,
  type CompletionsBody,
  type StreamedCompletionsBody,
} from "./completions-request.js";
import { runStream, type WireFormat } from "./run-stream.js";

/** An Azure Foundry model is addressed by its deployment name. */
function addressed<Body extends { model: string }>(model: Model, body: Body): Body {
  return isAzureModel(model) ? { ...body, model: azureTarget(model, process.env).deployment } : body;
}

const chatCompletions: WireFormat<CompletionsBody | StreamedCompletionsBody, CompletionChunk> = {
  buildBody: (model, context, options) =>
    addressed(model, buildCompletionsBody(model, context, options, resolveCompletionsCompat(model))),
  buildWireBody: (model, context, options) =>
    addressed(model, buildStreamedCompletionsBody(model, context, options, resolveCompletionsCompat(model))),
  headers: () => ({}),
  send: async (client: OpenAI, body, signal) => {
    const params = body as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
    return (await client.chat.completions.create(params, { signal })) as AsyncIterable<CompletionChunk>;
  },
  consume: consumeCompletionChunks,
};

/** Streams one answer over Chat Completions. */
export const openAICompletionsProvider: AiProvider = {
  api: "openai-completions",
  stream: (model: Model, context: Context, options?: StreamOptions) =>
    runStream(chatCompletions, model, context, options),
};
