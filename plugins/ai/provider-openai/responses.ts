/**
 * The "openai-responses" slot: OpenAI's Responses API (and servers that implement it).
 */
import type OpenAI from "openai";
import type { AiProvider, Context, Model, StreamOptions } from "pi-host";
import { consumeResponsesEvents, type ResponsesEvent } from "./responses-events.js";
import { buildResponsesBody, responsesHeaders, type ResponsesBody } from "./responses-request.js";
import { runStream, type WireFormat } from "./run-stream.js";

const responsesApi: WireFormat<ResponsesBody, ResponsesEvent> = {
  buildBody: buildResponsesBody,
  headers: responsesHeaders,
  send: async (client: OpenAI, body, signal) => {
    const params = body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming;
    return (await client.responses.create(params, { signal })) as AsyncIterable<ResponsesEvent>;
  },
  consume: consumeResponsesEvents,
};

/** Streams one answer over the Responses API. */
export const openAIResponsesProvider: AiProvider = {
  api: "openai-responses",
  stream: (model: Model, context: Context, options?: StreamOptions) => runStream(responsesApi, model, context, options),
};
