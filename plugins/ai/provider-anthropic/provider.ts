/**
 * The Anthropic Messages provider: one `stream()` that never throws. Read top to bottom: resolve the key,
 * build the body, send it (retrying transient failures while the consumer has seen no content), turn the
 * raw events into our events, and end with exactly one `done` or `error`.
 */
import {
  AssistantEventStream,
  newAssistantMessage,
  noteRetryAfter,
  withRetry,
  type AiProvider,
  type AssistantMessage,
  type AssistantStream,
  type Context,
  type Model,
  type StreamOptions,
} from "pi-host";
import { MessageAssembler } from "./assembler.js";
import { openEventStream } from "./client.js";
import { ABORTED_MESSAGE, describeError } from "./errors.js";
import { isOAuthToken, withClaudeCodeSystem } from "./oauth.js";
import { buildRequestBody } from "./request.js";
import { decodeEvent } from "./sse-events.js";

/** The wire protocol this provider speaks; also its slot key in the provider contract. */
export const ANTHROPIC_API = "anthropic-messages";

/** Streams assistant messages from the Anthropic Messages API (and compatible endpoints). */
export class AnthropicProvider implements AiProvider {
  readonly api = ANTHROPIC_API;

  stream(model: Model, context: Context, options: StreamOptions = {}): AssistantStream {
    const stream = new AssistantEventStream();
    const message = newAssistantMessage(model, ANTHROPIC_API);
    runStream(stream, message, model, context, options).catch((error: unknown) =>
      failStream(stream, message, error, options),
    );
    return stream;
  }
}

async function runStream(
  stream: AssistantEventStream,
  message: AssistantMessage,
  model: Model,
  context: Context,
  options: StreamOptions,
): Promise<void> {
  const apiKey = resolveApiKey(model, options);
  let body = buildRequestBody(model, context, options);
  if (isOAuthToken(apiKey)) body = withClaudeCodeSystem(body);
  const replaced = await options.onPayload?.(body, model);
  if (replaced !== undefined) body = replaced as typeof body;

  const assembler = new MessageAssembler(stream, message, model);
  let started = false;
  await withRetry(
    options.retry,
    options.signal,
    async () => {
      assembler.reset();
      const connection = await openEventStream(model, body, apiKey, options);
      try {
        if (!started) {
          started = true;
          stream.push({ type: "start", partial: message });
        }
        for await (const sse of connection.events) {
          const event = decodeEvent(sse);
          if (event !== undefined) assembler.apply(event);
        }
      } catch (error) {
        connection.guard.throwIfFailed();
        throw error;
      } finally {
        connection.close();
      }
      connection.guard.throwIfFailed();
      if (options.signal?.aborted) throw new Error(ABORTED_MESSAGE);
      assembler.finish();
    },
    () => !assembler.contentEmitted,
  );
}

/** Ends the stream with its one `error` event; an aborted signal wins over whatever error it caused. */
function failStream(
  stream: AssistantEventStream,
  message: AssistantMessage,
  error: unknown,
  options: StreamOptions,
): void {
  const aborted = options.signal?.aborted === true;
  message.stopReason = aborted ? "aborted" : "error";
  message.errorMessage = aborted
    ? ABORTED_MESSAGE
    : noteRetryAfter(message, describeError(error), error, options.retry);
  stream.push({ type: "error", reason: message.stopReason, error: message });
}

/**
 * The caller's key, else `ANTHROPIC_API_KEY` for the `anthropic` provider only (a custom endpoint must
 * never receive the user's Anthropic key by accident). Throws one line when there is none.
 */
function resolveApiKey(model: Model, options: StreamOptions): string {
  if (options.apiKey !== undefined && options.apiKey !== "") return options.apiKey;
  const fromEnv = model.provider === "anthropic" ? process.env.ANTHROPIC_API_KEY : undefined;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const hint =
    model.provider === "anthropic"
      ? "set ANTHROPIC_API_KEY or pass --api-key"
      : `add a key for "${model.provider}" to auth.json or pass --api-key`;
  throw new Error(`No API key for provider "${model.provider}": ${hint}`);
}
