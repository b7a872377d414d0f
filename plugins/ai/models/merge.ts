/**
 * Applies a models.json `providers` object to a model list, with pi's merge rules: provider-level
 * `baseUrl`, `headers` and `compat` apply to every model of that provider; `modelOverrides` patch
 * existing models by id (unknown ids are ignored); `models` are upserted by id (a custom model with a
 * built-in's id replaces it). Header values (and `authHeader`) are resolved only when a consumer reads
 * `model.headers`, i.e. at request time, so listing models never runs a `!command`.
 */
import type { Model } from "pi-host";
import { resolveConfigValue } from "./config-value.js";
import { ModelsFileError, type ModelOverride, type ProviderConfig, type ProvidersConfig } from "./models-file.js";

/** A header as written in config: its raw value spec, and where it was written (for errors). */
interface HeaderSpec {
  spec: string;
  /** Prepended to the resolved value (`Bearer ` for authHeader). */
  prefix: string;
  file: string;
  field: string;
}

/** Models being assembled, with the header specs that still need resolving. */
export interface ModelDraft {
  models: Model[];
  headers: Map<Model, Map<string, HeaderSpec>>;
}

const DEFAULT_CONTEXT_WINDOW = 128_000;
const DEFAULT_MAX_TOKENS = 16_384;

/** Starts a draft from the built-in models, copying them so overrides never touch the originals. */
export function draftFrom(builtins: readonly Model[]): ModelDraft {
  const models = builtins.map((m) => ({
    ...m,
    input: [...m.input],
    cost: { ...m.cost },
    ...(m.compat ? { compat: { ...m.compat } } : {}),
  }));
  return { models, headers: new Map() };
}

/**
 * Applies one providers layer; `file` and `root` name it in error messages. `known` gives the api and
 * base URL of built-in providers, for models added to one whose catalog lists none (Radius, Meta).
 */
export function applyProviders(
  draft: ModelDraft,
  providers: ProvidersConfig,
  file: string,
  root: string,
  known: ReadonlyMap<string, { api: string; baseUrl: string }> = new Map(),
): void {
  for (const [name, provider] of Object.entries(providers)) {
    const at = `${root}.${name}`;
    const existing = draft.models.filter((m) => m.provider === name);
    const defaults = existing[0] ?? known.get(name);
    for (const model of existing) applyProviderLevel(draft, model, provider, file, at);
    for (const [id, override] of Object.entries(provider.modelOverrides ?? {})) {
      const model = existing.find((m) => m.id === id);
      if (model !== undefined) applyOverride(draft, model, override, file, `${at}.modelOverrides.${id}`);
    }
    (provider.models ?? []).forEach((definition, index) => {
      const modelAt = `${at}.models[${index}]`;
      const api = definition.api ?? provider.api ?? defaults?.api;
      const baseUrl = definition.baseUrl ?? provider.baseUrl ?? defaults?.baseUrl;
      if (api === undefined)
        throw new ModelsFileError(file, `${modelAt}.api`, `no api: set "api" on the provider or the model`);
      if (baseUrl === undefined)
        throw new ModelsFileError(file, `${modelAt}.baseUrl`, `no baseUrl: set "baseUrl" on the provider or the model`);
      const compat = mergeCompat(mergeCompat(undefined, provider.compat), definition.compat);
      const model: Model = {
        id: definition.id,
        name: definition.name ?? definition.id,
        api,
        provider: name,
        baseUrl,
        reasoning: definition.reasoning ?? false,
        input: definition.input ?? ["text"],
        cost: definition.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: definition.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
        maxTokens: definition.maxTokens ?? DEFAULT_MAX_TOKENS,
        ...(compat ? { compat } : {}),
      };
      addHeaders(draft, model, provider.headers, file, `${at}.headers`);
      addHeaders(draft, model, definition.headers, file, `${modelAt}.headers`);
      addAuthHeader(draft, model, provider, file, at);
      const replaced = draft.models.findIndex((m) => m.provider === name && m.id === definition.id);
      if (replaced >= 0) {
        draft.headers.delete(draft.models[replaced]!);
        draft.models[replaced] = model;
      } else {
        draft.models.push(model);
      }
    });
  }
}

/** Turns header specs into lazily resolved `headers` properties and returns the finished list. */
export function finish(draft: ModelDraft, env: NodeJS.ProcessEnv): Model[] {
  for (const [model, specs] of draft.headers) {
    const literal = model.headers ?? {};
    let resolved: Record<string, string> | undefined;
    Object.defineProperty(model, "headers", {
      enumerable: true,
      configurable: true,
      get(): Record<string, string> {
        resolved ??= resolveHeaders(literal, specs, env);
        return resolved;
      },
    });
  }
  return draft.models;
}

function resolveHeaders(
  literal: Record<string, string>,
  specs: Map<string, HeaderSpec>,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const out = { ...literal };
  for (const [name, header] of specs) {
    try {
      const value = resolveConfigValue(header.spec, env);
      if (value !== undefined) out[name] = header.prefix + value;
    } catch (error) {
      throw new ModelsFileError(header.file, header.field, (error as Error).message);
    }
  }
  return out;
}

function applyProviderLevel(draft: ModelDraft, model: Model, provider: ProviderConfig, file: string, at: string): void {
  if (provider.baseUrl !== undefined) model.baseUrl = provider.baseUrl;
  const compat = mergeCompat(model.compat, provider.compat);
  if (compat) model.compat = compat;
  addHeaders(draft, model, provider.headers, file, `${at}.headers`);
  addAuthHeader(draft, model, provider, file, at);
}

function applyOverride(draft: ModelDraft, model: Model, override: ModelOverride, file: string, at: string): void {
  if (override.name !== undefined) model.name = override.name;
  if (override.reasoning !== undefined) model.reasoning = override.reasoning;
  if (override.input !== undefined) model.input = [...override.input];
  if (override.cost !== undefined) model.cost = { ...model.cost, ...override.cost };
  if (override.contextWindow !== undefined) model.contextWindow = override.contextWindow;
  if (override.maxTokens !== undefined) model.maxTokens = override.maxTokens;
  const compat = mergeCompat(model.compat, override.compat);
  if (compat) model.compat = compat;
  addHeaders(draft, model, override.headers, file, `${at}.headers`);
}

function addHeaders(
  draft: ModelDraft,
  model: Model,
  headers: Record<string, string> | undefined,
  file: string,
  at: string,
): void {
  if (headers === undefined) return;
  const specs = draft.headers.get(model) ?? new Map<string, HeaderSpec>();
  for (const [name, spec] of Object.entries(headers))
    specs.set(name, { spec, prefix: "", file, field: `${at}.${name}` });
  draft.headers.set(model, specs);
}

function addAuthHeader(draft: ModelDraft, model: Model, provider: ProviderConfig, file: string, at: string): void {
  if (provider.authHeader !== true) return;
  if (provider.apiKey === undefined)
    throw new ModelsFileError(file, `${at}.authHeader`, `needs "apiKey" on the same provider`);
  const specs = draft.headers.get(model) ?? new Map<string, HeaderSpec>();
  specs.set("Authorization", { spec: provider.apiKey, prefix: "Bearer ", file, field: `${at}.apiKey` });
  draft.headers.set(model, specs);
}

function mergeCompat(base: Model["compat"], patch: Record<string, unknown> | undefined): Model["compat"] {
  if (patch === undefined) return base;
  return { ...base, ...(patch as Model["compat"]) };
}
