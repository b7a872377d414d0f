/**
 * The "azure-openai-responses" slot: Azure OpenAI's Responses API through the AzureOpenAI client. The
 * body is the Responses body with the deployment name as its model; everything else (events, reasoning
 * replay, errors, retries) is the Responses slot's.
 */
import type OpenAI from "openai";
import type { AiProvider, Context, Model, StreamOptions } from "pi-host";
import { AZURE_RESPONSES_API, azureTarget } from "./azure-config.js";
import { consumeResponsesEvents, type ResponsesEvent } from "./responses-events.js";
import { buildResponsesBody, responsesHeaders, type ResponsesBody } from "./responses-request.js";
import { runStream, type WireFormat } from "./run-stream.js";

const azureResponsesApi: WireFormat<ResponsesBody, ResponsesEvent> = {
  buildBody: (model, context, options) => ({
    ...buildResponsesBody(model, context, options),
    model: azureTarget(model, process.env).deployment,
  }),
  headers: responsesHeaders,
  send: async (client: OpenAI, body, signal) => {
    const params = body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming;
    return (await client.responses.create(params, { signal })) as AsyncIterable<ResponsesEvent>;
  },
  consume: consumeResponsesEvents,
};

/** Streams one answer from an Azure OpenAI deployment over the Responses API. */
export const azureResponsesProvider: AiProvider = {
  api: AZURE_RESPONSES_API,
  stream: (model: Model, context: Context, options?: StreamOptions) =>
    runStream(azureResponsesApi, model, context, options),
};
