/**
 * The router behind `ai/llm`: model → the provider slot of its `api` → its key → one stream. The
 * provider is leased for the whole stream, so a provider plugin reloaded mid-answer finishes this
 * answer on its old generation and the next one starts on the new.
 */
import {
  type AccountAuth,
  AssistantEventStream,
  newAssistantMessage,
  type AiProvider,
  type AssistantMessageEvent,
  type AssistantStream,
  type AuthStore,
  type Context,
  type CustomStreamFunction,
  type Handle,
  type Llm,
  type ManyHandle,
  type Model,
  type ModelCatalog,
  type StreamOptions,
} from "pi-host";
import { observeRequest } from "./request-span.js";

/** The handles the router works through. */
export interface RouterDeps {
  providers: ManyHandle<AiProvider>;
  auth: Handle<AuthStore>;
  models: Handle<ModelCatalog>;
  /** Account sign-ins: their base URL and headers go with the bearer. */
  accounts?: Handle<AccountAuth>;
}

/** The scripted test provider answers without a key; so does any server on this machine. */
const KEYLESS_APIS = new Set(["faux"]);

/** Builds the router over the provider, auth and catalog handles. */
export function createRouter(deps: RouterDeps): Llm {
  const { providers, auth, models, accounts } = deps;

  /**
   * `model` as a signed-in account reaches it: when the key in use is that account's bearer, its base
   * URL (Copilot's per-account host) and headers (Codex's account id) replace the catalog's.
   */
  async function withAccount(model: Model, apiKey: string | undefined): Promise<Model> {
    if (apiKey === undefined || accounts?.available !== true) return model;
    const account = await accounts.api.requestAuth(model.provider);
    if (account === undefined || account.apiKey !== apiKey) return model;
    return {
      ...model,
      baseUrl: account.baseUrl ?? model.baseUrl,
      headers: account.headers ? { ...model.headers, ...account.headers } : model.headers,
    };
  }

  /** The key stored for `model`'s provider (auth.json, the environment...), else one an extension registered. */
  async function storedKey(model: Model): Promise<string | undefined> {
    return (
      (auth.available ? await auth.api.apiKey(model.provider) : undefined) ??
      (models.available ? models.api.registeredApiKey(model.provider) : undefined)
    );
  }

  /** The key for `model`'s provider; throws the auth plugin's one-line advice when one is needed and missing. */
  async function keyFor(model: Model): Promise<string | undefined> {
    const key = await storedKey(model);
    if (key !== undefined || KEYLESS_APIS.has(model.api) || isLoopback(model.baseUrl)) return key;
    throw new Error(auth.available ? auth.api.missingKeyMessage(model.provider) : `no API key for ${model.provider}`);
  }

  function noProvider(model: Model): string {
    return `no provider plugin speaks "${model.api}" (model ${model.provider}/${model.id}); enable one in plugins.json`;
  }

  function stream(model: Model, context: Context, options: StreamOptions = {}): AssistantStream {
    const out = new AssistantEventStream();
    // The request span (under the caller's `options.telemetry`) sees every event and goes to the provider.
    const request = observeRequest(model, options);
    const push = (event: AssistantMessageEvent): void => {
      request.onEvent(event);
      out.push(event);
    };
    // A provider or model registered with its own stream (pi's `streamSimple`, virtual models) answers itself.
    const custom = models.available ? models.api.customStream(model) : undefined;
    if (custom !== undefined) {
      void forward(custom, model, context, options, request, push);
      return out;
    }
    void (async () => {
      const lease = await providers.find(model.api)?.acquire();
      try {
        if (lease === undefined) throw new Error(noProvider(model));
        const apiKey = options.apiKey ?? (await keyFor(model));
        const target = options.apiKey === undefined ? await withAccount(model, apiKey) : model;
        const sent = { ...options, apiKey, telemetry: request.span };
        for await (const event of lease.value.stream(target, context, sent)) push(event);
      } catch (error) {
        push(failure(model, options, error));
      } finally {
        lease?.release();
        request.end();
      }
    })();
    return out;
  }

  /** A registered stream's events, with the stored or registered key when the caller gave none; failures end it with `error`. */
  async function forward(
    custom: CustomStreamFunction,
    model: Model,
    context: Context,
    options: StreamOptions,
    request: ReturnType<typeof observeRequest>,
    push: (event: AssistantMessageEvent) => void,
  ): Promise<void> {
    try {
      const apiKey = options.apiKey ?? (await storedKey(model));
      for await (const event of custom(model, context, { ...options, apiKey, telemetry: request.span })) push(event);
    } catch (error) {
      push(failure(model, options, error));
    } finally {
      request.end();
    }
  }

  async function problem(model: Model): Promise<string | undefined> {
    if (models.available && models.api.customStream(model) !== undefined) return undefined;
    if (providers.find(model.api) === undefined) return noProvider(model);
    return keyFor(model).then(
      () => undefined,
      (error: Error) => error.message,
    );
  }

  return {
    stream,
    complete: (model, context, options) => stream(model, context, options).result(),
    problem,
    async available() {
      const out: Model[] = [];
      for (const model of models.api.list()) if ((await problem(model)) === undefined) out.push(model);
      return out;
    },
  };
}

/** The one `error` event a failed stream ends with (`aborted` once the caller's signal fired). */
function failure(model: Model, options: StreamOptions, error: unknown): AssistantMessageEvent {
  const message = newAssistantMessage(model);
  message.stopReason = options.signal?.aborted ? "aborted" : "error";
  message.errorMessage = error instanceof Error ? error.message : String(error);
  return { type: "error", reason: message.stopReason, error: message };
}

/** Whether `baseUrl` points at this machine (a local server needs no key). */
export function isLoopback(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === "localhost" || host === "::1" || host === "[::1]" || host.startsWith("127.");
  } catch {
    return false;
  }
}
