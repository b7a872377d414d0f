/**
 * The request lifecycle both OpenAI slots share: check the key, build the body, let `onPayload` see it,
 * create the client, send with transparent retries while nothing has reached the consumer, and end
 * with exactly one `done` or `error` event. Everything that can fail is caught here, so `stream()`
 * never throws and its result never rejects.
 */
import type OpenAI from "openai";
import { AssistantEventStream, nodeFetch, noteRetryAfter, RequestGuard, requestLimits, withRetry } from "pi-host";
import type { AssistantStream, Context, Model, StreamOptions } from "pi-host";
import { createOpenAIClient, SdkLogSink } from "./client.js";
import { describeError } from "./errors.js";
import { MessageBuilder } from "./message-builder.js";
import { streamedBody } from "./streamed-body.js";
import { checkRequest, requireApiKey } from "./request-checks.js";

/** What one wire format contributes to the shared lifecycle. */
export interface WireFormat<Body, Event> {
  /** The request body (before `onPayload`). May throw a one-line error for unusable input. */
  buildBody(model: Model, context: Context, options: StreamOptions): Body;
  /**
   * The same body for when no `onPayload` looks at it first: parts of it may be made as it is sent
   * (kit's JsonArrayStream), so a long history's converted messages never exist all at once.
   */
  buildWireBody?(model: Model, context: Context, options: StreamOptions): Body;
  /** Headers this format adds to the model's own (session affinity and the like). */
  headers(model: Model, options: StreamOptions): Record<string, string>;
  /** Sends the body and returns the SDK's event stream once the response headers arrived. */
  send(client: OpenAI, body: Body, signal: AbortSignal | undefined): Promise<AsyncIterable<Event>>;
  /**
   * Reads the events into the message; throws when the stream reports a failure or ends early. Returns
   * at once, leaving blocks open, when `signal` fired (the SDK then ends its iterator without an error).
   */
  consume(
    events: AsyncIterable<Event>,
    builder: MessageBuilder,
    model: Model,
    signal: AbortSignal | undefined,
  ): Promise<void>;
}

/** Streams one assistant message over `format`. Never throws; failures end in an `error` event. */
export function runStream<Body, Event>(
  format: WireFormat<Body, Event>,
  model: Model,
  context: Context,
  options: StreamOptions = {},
): AssistantStream {
  const events = new AssistantEventStream();
  const builder = new MessageBuilder(events, model);
  const logs = new SdkLogSink();
  const signal = options.signal;

  const run = async (): Promise<void> => {
    checkRequest(model, context);
    const apiKey = requireApiKey(model, options);
    let body: Body;
    if (options.onPayload === undefined) body = (format.buildWireBody ?? format.buildBody)(model, context, options);
    else {
      const built = format.buildBody(model, context, options);
      const replaced = await options.onPayload(built, model);
      body = (replaced === undefined ? built : replaced) as Body;
    }
    const headers = { ...model.headers, ...format.headers(model, options), ...options.headers };
    let guard: RequestGuard | undefined;
    const wire = streamedBody(body);
    const client = await createOpenAIClient(model, apiKey, headers, logs, (input, init) =>
      guard!.fetch(input, wire.swap(init)),
    );
    await withRetry(
      options.retry,
      signal,
      async () => {
        builder.resetForRetry();
        // One guard per attempt: its own abort link (removed when the attempt ends) and stall timers.
        const attempt = new RequestGuard(signal, requestLimits(options), nodeFetch);
        guard = attempt;
        try {
          const stream = await format.send(client, wire.standIn as Body, attempt.signal);
          builder.start();
          await format.consume(stream, builder, model, attempt.signal);
        } catch (error) {
          attempt.throwIfFailed();
          throw error;
        } finally {
          attempt.dispose();
        }
        attempt.throwIfFailed();
      },
      () => !builder.contentEmitted,
    );
    // The SDK ends its iterator quietly when the signal fires; an abort must still read as one.
    if (signal?.aborted) throw new Error("Request was aborted");
    if (builder.message.stopReason === "error")
      throw new Error(builder.message.errorMessage ?? "The provider ended the answer with an error");
    builder.finish();
  };

  run().catch((error: unknown) => {
    const aborted = signal?.aborted === true;
    const text = describeError(error, { aborted, streaming: builder.streaming, malformedData: logs.malformedData });
    builder.fail(aborted ? text : noteRetryAfter(builder.message, text, error, options.retry), aborted);
  });
  return events;
}
