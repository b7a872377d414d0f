/**
 * Creating the OpenAI SDK client, shared by the Chat Completions and Responses slots. The SDK is loaded
 * here, lazily, on the first request: a run that never talks to an OpenAI-style API never pays its
 * import cost. The client never retries on its own (`maxRetries: 0`); the provider's retry loop does,
 * because only it knows whether content already reached the consumer.
 */
import type OpenAI from "openai";
import type { Model } from "pi-host";
import { AZURE_RESPONSES_API, azureTarget, isAzureModel } from "./azure-config.js";

/** The message the SDK logs just before it throws on an SSE `data:` line that is not JSON. */
const UNPARSABLE_DATA = "Could not parse message into JSON";

/**
 * Receives the SDK's log lines instead of the console. A terminal UI must not get stray writes, and the
 * one line that matters — the raw `data:` text the SDK failed to parse — is kept so the error event can
 * quote it (the SDK's own SyntaxError carries only a fragment of it).
 */
export class SdkLogSink {
  /** The last SSE data payload the SDK could not parse as JSON. */
  malformedData: string | undefined;

  error = (message: unknown, ...rest: unknown[]): void => {
    if (typeof message === "string" && message.startsWith(UNPARSABLE_DATA) && rest.length > 0)
      this.malformedData = String(rest[0]);
  };
  warn = (): void => {};
  info = (): void => {};
  debug = (): void => {};
}

/**
 * Builds a client for one request: model headers, then request headers, then the caller's overrides.
 * `fetch` is the request guard's (stall timeouts, line cap). Azure's OpenAI models get the AzureOpenAI
 * client, which sends the key as `api-key` and adds `api-version` to every URL; Azure's Foundry models
 * (Chat Completions) get the plain client on the resolved Azure endpoint, as pi 1.6 sends them.
 */
export async function createOpenAIClient(
  model: Model,
  apiKey: string,
  headers: Record<string, string>,
  logs: SdkLogSink,
  fetch: typeof globalThis.fetch,
): Promise<OpenAI> {
  const { default: OpenAIClient, AzureOpenAI } = await import("openai");
  const azure = isAzureModel(model) ? azureTarget(model, process.env) : undefined;
  if (azure !== undefined && model.api === AZURE_RESPONSES_API) {
    const target = azure;
    return new AzureOpenAI({
      apiKey,
      apiVersion: target.apiVersion,
      baseURL: target.baseUrl,
      maxRetries: 0,
      defaultHeaders: headers,
      logger: logs,
      logLevel: "error",
      fetch,
    });
  }
  return new OpenAIClient({
    apiKey,
    baseURL: azure?.baseUrl ?? (model.baseUrl === "" ? undefined : model.baseUrl),
    maxRetries: 0,
    defaultHeaders: headers,
    logger: logs,
    logLevel: "error",
    fetch,
  });
}
