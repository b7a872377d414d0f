/**
 * What a request needs before anything is sent: an API key, a usable base URL, a message list. Each
 * failure is one line naming the problem and the fix, instead of an SDK or TypeError message about its
 * internals ("Invalid URL", "messages is not iterable").
 */
import type { Context, Model, StreamOptions } from "pi-host";

/** Thrown for a request that cannot be sent as given; its message is shown to the user as is. */
export class RequestSetupError extends Error {
  override name = "RequestSetupError";
}

/**
 * The API key for this request. Keys come from the caller (CLI flag, auth.json or environment, resolved
 * by the auth store); the provider never falls back to OPENAI_API_KEY itself, which would send an
 * OpenAI key to whatever server `baseUrl` names.
 */
export function requireApiKey(model: Model, options: StreamOptions): string {
  const key = options.apiKey;
  if (key === undefined || key.trim() === "") {
    throw new RequestSetupError(
      `No API key for provider "${model.provider}": pass --api-key, add it to auth.json, or set the provider's API key environment variable`,
    );
  }
  return key;
}

/** Checks the model's base URL (empty means OpenAI's default) and the context's shape. */
export function checkRequest(model: Model, context: Context): void {
  if (model.baseUrl !== "" && !/^https?:\/\/[^/\s]+/i.test(model.baseUrl ?? "")) {
    throw new RequestSetupError(
      `Model "${model.provider}/${model.id}" has an invalid baseUrl ${JSON.stringify(model.baseUrl)}: expected an http:// or https:// URL such as "http://localhost:11434/v1"`,
    );
  }
  if (context === null || typeof context !== "object" || !Array.isArray(context.messages)) {
    throw new RequestSetupError("The request context has no `messages` array");
  }
}
