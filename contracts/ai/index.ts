/**
 * The AI contracts: providers that stream one assistant message, the model catalog, and API keys.
 */
import { defineContract } from "../../kernel/index.js";
import type { AssistantStream, Context, Model, StreamOptions, ThinkingLevel } from "./types.js";

export * from "./types.js";
export * from "./llm.js";
export * from "./auth-account.js";

/**
 * One wire protocol. `stream` never throws and never rejects: every failure (auth, network, HTTP status,
 * malformed stream, abort) ends the stream with an `error` event whose message has stopReason `error`
 * or `aborted` and an `errorMessage`.
 */
export interface AiProvider {
  /** The wire protocol this provider speaks, e.g. "anthropic-messages". */
  readonly api: string;
  stream(model: Model, context: Context, options?: StreamOptions): AssistantStream;
}

/** Providers register one slot per wire protocol (`key` = api). */
export const AiProviderContract = defineContract<AiProvider>({
  id: "ai/provider",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  shape: { api: "string", stream: "function" },
  methods: { stream: "sync" },
});

/** A parsed `provider/id[:thinking]` model reference. */
export interface ResolvedModel {
  model: Model;
  thinking?: ThinkingLevel;
}

/** One model of a `--models` / `enabledModels` scope; `thinking` only when its pattern pinned one (`x:high`). */
export interface ScopedModel {
  model: Model;
  thinking?: ThinkingLevel;
}

/** The models a scope selects, in pattern order, and one warning per pattern that matched nothing or too much. */
export interface ModelScope {
  models: ScopedModel[];
  warnings: string[];
}

/** Streams one answer for a model whose wire protocol a plugin implements itself (pi's `streamSimple`). */
export type CustomStreamFunction = (model: Model, context: Context, options?: StreamOptions) => AssistantStream;

/**
 * A provider added while the host runs (pi's `registerProvider`): one provider entry in models.json's
 * format (`name`, `baseUrl`, `apiKey`, `api`, `headers`, `authHeader`, `compat`, `models`,
 * `modelOverrides`) as plain data, and optionally the stream that answers for its models.
 */
export interface RuntimeProvider {
  config: Record<string, unknown>;
  /** Answers every request for this provider's models instead of the provider plugin of their api. */
  stream?: CustomStreamFunction;
}

/** The model catalog: built-ins plus `models.json` custom providers and overrides. */
export interface ModelCatalog {
  list(): Model[];
  find(provider: string, id: string): Model | undefined;
  /** Models whose provider, id or name contains every word of `query`. */
  search(query: string): Model[];
  /** Resolves `provider/id[:thinking]` or a bare id; throws one line with the closest matches. */
  resolve(reference: string, provider?: string): ResolvedModel;
  /**
   * The model to start with when nothing chose one (no flag, session or setting), as pi 1.6 picks it:
   * the default model of the first provider that has a key; undefined when no provider has one.
   */
  initialModel(): Model | undefined;
  /**
   * pi's `--models` / `enabledModels` patterns (ids, fuzzy matches, globs over `provider/id` or the id,
   * `:thinking` suffixes) resolved among `among`, the models that can be used now.
   */
  scope(patterns: readonly string[], among: readonly Model[]): ModelScope;
  /**
   * Adds or replaces a provider at run time, layered over the built-in catalog and under models.json (as
   * pi composes models.json above a registered provider). With `models` it replaces the provider's
   * models; without, it changes the endpoint, headers or overrides of the models it has. Throws one line
   * naming the bad field.
   */
  registerProvider(name: string, provider: RuntimeProvider): void;
  /** Removes a provider `registerProvider` added; the built-in models it overrode come back. No-op when unknown. */
  unregisterProvider(name: string): void;
  /** Adds or replaces one model answered by `stream` (pi's virtual models), listed under `model.provider`. */
  registerModel(model: Model, stream: CustomStreamFunction): void;
  /** Removes a model `registerModel` added. No-op when unknown. */
  unregisterModel(provider: string, id: string): void;
  /** The stream a registered provider or model answers with, when it has its own; else undefined. */
  customStream(model: Model): CustomStreamFunction | undefined;
  /** The key a registered provider's `apiKey` gives (`$ENV`, `!command` or literal), resolved now. */
  registeredApiKey(provider: string): string | undefined;
}

/**
 * 1.1: `initialModel`, the starting model when nothing chose one; 1.2: `scope`, for `--models`; 1.3:
 * providers and models added at run time (`registerProvider`, `registerModel`, their removal, their
 * `customStream` and `registeredApiKey`), for pi extensions' `registerProvider` and virtual models.
 */
export const ModelsContract = defineContract<ModelCatalog>({
  id: "ai/models",
  version: "1.3.0",
  kind: "single",
  gate: "overlap",
  shape: {
    list: "function",
    find: "function",
    search: "function",
    resolve: "function",
    initialModel: "function",
    scope: "function",
  },
  methods: {
    list: "sync",
    find: "sync",
    search: "sync",
    resolve: "sync",
    initialModel: "sync",
    scope: "sync",
    registerProvider: "sync",
    unregisterProvider: "sync",
    registerModel: "sync",
    unregisterModel: "sync",
    customStream: "sync",
    registeredApiKey: "sync",
  },
});

/** API keys: `--api-key` > auth.json > environment. */
export interface AuthStore {
  /** The key for a provider, or undefined when none is configured. */
  apiKey(provider: string): Promise<string | undefined>;
  /** One line telling the user how to provide a key for `provider`. */
  missingKeyMessage(provider: string): string;
  /** Stores a key in auth.json (mode 0600). */
  setApiKey(provider: string, key: string): Promise<void>;
}

export const AuthContract = defineContract<AuthStore>({
  id: "auth",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { apiKey: "function", missingKeyMessage: "function", setApiKey: "function" },
  methods: { apiKey: "async", missingKeyMessage: "sync", setApiKey: "async" },
});
