/**
 * Providers and models added while the host runs (ModelsContract 1.3: pi extensions' `registerProvider`
 * and virtual models). They live in memory only, layered over the built-in catalog and under
 * models.json, so removing one rebuilds the catalog without it and the built-in models it overrode come
 * back. Each change bumps `generation`, which is part of the catalog's build stamp.
 */
import type { CustomStreamFunction, Model, RuntimeProvider } from "pi-host";
import { resolveConfigValue } from "./config-value.js";
import type { ModelDraft } from "./merge.js";
import { applyProviders } from "./merge.js";
import { checkProviders, type ParseRules, type ProviderConfig } from "./models-file.js";

/** How error messages name a provider an extension registered. */
export const RUNTIME_SOURCE = "registerProvider";
const ROOT = "providers";

/** One registered provider: its checked config and its own stream, if any. */
interface Registered {
  config: ProviderConfig;
  stream?: CustomStreamFunction;
}

/** The run-time registrations of one catalog. */
export class RuntimeProviders {
  private readonly providers = new Map<string, Registered>();
  private readonly models = new Map<string, { model: Model; stream: CustomStreamFunction }>();
  /** Bumped on every change, so the catalog rebuilds. */
  generation = 0;

  /** Checks `provider` with the catalog's rules and keeps it; throws one line naming the bad field. */
  register(name: string, provider: RuntimeProvider, rules: ParseRules): void {
    if (typeof name !== "string" || name === "") throw new Error("registerProvider needs a provider name");
    const config = plainData(provider.config) as ProviderConfig;
    // A provider with its own stream may name an api no provider plugin speaks; its key is optional, as in pi.
    const apis = provider.stream === undefined ? rules.apis : [...rules.apis, ...apisOf(config)];
    const checked = checkProviders(RUNTIME_SOURCE, { [name]: config }, { ...rules, apis, keyOptional: true }, ROOT);
    this.providers.set(name, { config: checked[name]!, ...(provider.stream && { stream: provider.stream }) });
    this.generation++;
  }

  unregister(name: string): void {
    if (this.providers.delete(name)) this.generation++;
  }

  registerModel(model: Model, stream: CustomStreamFunction): void {
    if (typeof model?.provider !== "string" || model.provider === "" || typeof model.id !== "string" || model.id === "")
      throw new Error("a registered model needs a provider and an id");
    this.models.set(keyOf(model.provider, model.id), { model: { ...model }, stream });
    this.generation++;
  }

  unregisterModel(provider: string, id: string): void {
    if (this.models.delete(keyOf(provider, id))) this.generation++;
  }

  /** Applies the registered providers to `draft`: `models` replace the provider's own, as pi's legacy form does. */
  apply(draft: ModelDraft, known: ReadonlyMap<string, { api: string; baseUrl: string }>): void {
    for (const [name, { config }] of this.providers) {
      if ((config.models?.length ?? 0) > 0) {
        for (const model of draft.models.filter((m) => m.provider === name)) draft.headers.delete(model);
        draft.models = draft.models.filter((m) => m.provider !== name);
      }
      applyProviders(draft, { [name]: config }, RUNTIME_SOURCE, ROOT, known);
    }
  }

  /** The finished list with the registered models added; one hides a physical model with its id, as in pi. */
  withModels(models: Model[]): Model[] {
    if (this.models.size === 0) return models;
    const out = models.filter((m) => !this.models.has(keyOf(m.provider, m.id)));
    for (const { model } of this.models.values()) out.push({ ...model });
    return out;
  }

  /** The stream of a registered model, else of its registered provider. */
  streamFor(model: Model): CustomStreamFunction | undefined {
    return this.models.get(keyOf(model.provider, model.id))?.stream ?? this.providers.get(model.provider)?.stream;
  }

  /** Whether `provider` was registered with an `apiKey` (it then counts as keyed). */
  hasKey(provider: string): boolean {
    return this.providers.get(provider)?.config.apiKey !== undefined;
  }

  /** The registered `apiKey` of `provider`, resolved now (`$ENV`, `!command`, literal). */
  apiKey(provider: string, env: NodeJS.ProcessEnv): string | undefined {
    const spec = this.providers.get(provider)?.config.apiKey;
    return spec === undefined ? undefined : resolveConfigValue(spec, env);
  }

  /** Providers registered here, with models of their own or only overrides. */
  names(): string[] {
    return [...this.providers.keys()];
  }
}

function keyOf(provider: string, id: string): string {
  return `${provider}\u0000${id}`;
}

/** The api names a provider entry uses. */
function apisOf(config: ProviderConfig): string[] {
  const out = new Set<string>();
  if (typeof config.api === "string") out.add(config.api);
  for (const model of config.models ?? []) if (typeof model.api === "string") out.add(model.api);
  return [...out];
}

/** A copy of `value` with functions (pi's `streamSimple`, `oauth`, `refreshModels`) left out. */
function plainData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainData);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (typeof item !== "function") out[key] = plainData(item);
  return out;
}
