/**
 * One streamed Bedrock answer, top to bottom: build the ConverseStream input, let `onPayload` see it,
 * send it through the AWS SDK (loaded only now, in client.ts), turn events into stream events, retry
 * transient failures while nothing has reached the consumer, and end with exactly one `done` or `error`.
 * Never throws: every failure becomes the final message's `errorMessage`.
 */
import type { ConverseStreamCommandInput } from "@aws-sdk/client-bedrock-runtime";
import {
  AssistantEventStream,
  linkAbort,
  newAssistantMessage,
  noteRetryAfter,
  withRetry,
  type AssistantMessage,
  type AssistantStream,
  type Context,
  type Model,
  type StreamOptions,
} from "pi-host";
import { sendConverseStream } from "./client.js";
import { bedrockClientSettings } from "./client-config.js";
import { toRequestError } from "./errors.js";
import { buildConverseInput } from "./request.js";
import { BedrockTurn } from "./turn.js";

/** The wire protocol this provider speaks. */
export const BEDROCK_API = "bedrock-converse-stream";

/** Streams one assistant message from Bedrock. */
export function streamBedrock(model: Model, context: Context, options: StreamOptions = {}): AssistantStream {
  const events = new AssistantEventStream();
  const message = newAssistantMessage(model, BEDROCK_API);
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
  const env = process.env;
  const settings = bedrockClientSettings(model, options.apiKey, env);
  let input = buildConverseInput(model, context, options, env);
  const replaced = await options.onPayload?.(input, model);
  if (replaced !== undefined) input = replaced as ConverseStreamCommandInput;
  const headers = { ...model.headers, ...options.headers };

  const turn = new BedrockTurn(model, message, events);
  let started = false;
  await withRetry(
    options.retry,
    options.signal,
    async () => {
      turn.resetForRetry();
      const abort = linkAbort(options.signal);
      let close = (): void => {};
      try {
        const response = await sendConverseStream(settings, input, headers, abort.controller.signal);
        close = response.close;
        message.responseId = response.requestId;
        if (!started) {
          started = true;
          events.push({ type: "start", partial: message });
        }
        for await (const event of response.events) {
          if (abort.controller.signal.aborted) break;
          turn.accept(event);
        }
      } catch (error) {
        if (abort.controller.signal.aborted) throw new Error("Request was aborted");
        throw toRequestError(error);
      } finally {
        close();
        abort.dispose();
      }
    },
    () => !turn.emittedContent,
  );
  if (options.signal?.aborted) throw new Error("Request was aborted");
  const reason = turn.finish();
  message.stopReason = reason;
  events.push({ type: "done", reason, message });
}

function fail(events: AssistantEventStream, message: AssistantMessage, options: StreamOptions, error: unknown): void {
  const aborted = options.signal?.aborted === true;
  message.stopReason = aborted ? "aborted" : "error";
  const text = error instanceof Error ? error.message : String(error);
  message.errorMessage = aborted ? "Request was aborted" : noteRetryAfter(message, text, error, options.retry);
  events.push({ type: "error", reason: message.stopReason, error: message });
}
