/**
 * The model catalog: the built-in catalog (shipped, or refreshed by `pi update --models`; a provider's
 * list fetched at run time, in models-store.json, replaces its shipped one), then the plugin's inline
 * `providers` config, then `<agentDir>/models.json`. Nothing is read at setup: the
 * built-in data and the files are read on first use, and read again whenever models.json or the
 * refreshed catalog changes on disk, so a user can edit them while a session runs. Lookups that fail say
 * what the user probably meant.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { MODELS_STORE_FILE, type Model, type ModelCatalog, type ModelScope, type ResolvedModel } from "pi-host";
import type { CustomStreamFunction, RuntimeProvider } from "pi-host";
import { type BuiltinCatalog, loadBuiltinCatalog, type ProviderInfo, refreshedStamp } from "./builtin-catalog.js";
import { applyProviders, draftFrom, finish } from "./merge.js";
import {
  checkProviders,
  KNOWN_APIS,
  ModelsFileError,
  parseModelsFile,
  type ParseRules,
  type ProvidersConfig,
} from "./models-file.js";
import { storedCatalogs } from "./models-store.js";
import { resolveReference } from "./resolve.js";
import { resolveScope } from "./scope.js";
import { RuntimeProviders } from "./runtime-providers.js";

export { reference, UnknownModelError } from "./resolve.js";

/** Everything the catalog is built from. */
export interface CatalogOptions {
  /** The folder holding models.json (and a refreshed catalog). */
  agentDir: string;
  /** The built-in catalog; default: read it from the shipped or refreshed data file. */
  builtins?: (agentDir: string, env: NodeJS.ProcessEnv) => BuiltinCatalog;
  /** Providers from the plugin's config, applied before models.json. */
  inlineProviders?: ProvidersConfig;
  /** API names besides the four known ones that models may use (other provider plugins' keys). */
  extraApis?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** Where the inline providers come from, as error messages name it. */
export const INLINE_SOURCE = "plugins.json (models plugin config)";

/** One build of the catalog. */
interface Built {
  models: Model[];
  providers: Map<string, ProviderInfo>;
  defaultOrder: string[];
  /** Providers whose models.json or inline entry has an `apiKey`. */
  keyed: Set<string>;
}

/**
 * The models plugin's implementation of ModelsContract, plus `defaultModel`, `initialModel` and
 * `providerInfo`, which the contract has no member for yet (a consumer checks for them on the provider).
 */
export class ModelCatalogStore implements ModelCatalog {
  private cached: { stamp: string; built?: Built; error?: Error } | undefined;
  /** Providers and models added at run time (pi extensions' `registerProvider`, virtual models). */
  private readonly runtime = new RuntimeProviders();

  constructor(private readonly options: CatalogOptions) {}

  /** The models.json this catalog reads. */
  get file(): string {
    return join(this.options.agentDir, "models.json");
  }

  list(): Model[] {
    return [...this.current().models];
  }

  find(provider: string, id: string): Model | undefined {
    return this.current().models.find((m) => m.provider === provider && m.id === id);
  }

  search(query: string): Model[] {
    const words = query
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w !== "");
    return this.current().models.filter((m) => {
      const haystack = `${m.provider}/${m.id} ${m.name}`.toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
  }

  resolve(ref: string, provider?: string): ResolvedModel {
    const built = this.current();
    const auth = new Lazy(() => authEntries(join(this.options.agentDir, "auth.json")));
    return resolveReference(ref, provider, built.models, (p) => this.usable(p, built, auth));
  }

  /**
   * The model picked for `provider` when none is named: its catalog default (pi 1.6.0's when the data has
   * it, else the provider's newest), else its first model.
   */
  defaultModel(provider: string): Model | undefined {
    const built = this.current();
    const id = built.providers.get(provider)?.defaultModel;
    const own = built.models.filter((m) => m.provider === provider);
    return own.find((m) => m.id === id) ?? own[0];
  }

  /**
   * The model pi 1.6 starts with when nothing chose one (no flag, session or setting): the default model
   * of the first provider, in pi's order, that has a key; else the first model that has a key.
   */
  initialModel(): Model | undefined {
    const built = this.current();
    const auth = new Lazy(() => authEntries(join(this.options.agentDir, "auth.json")));
    for (const provider of built.defaultOrder) {
      if (!this.usable(provider, built, auth)) continue;
      const id = built.providers.get(provider)?.defaultModel;
      const model = built.models.find((m) => m.provider === provider && m.id === id);
      if (model !== undefined) return model;
    }
    return built.models.find((m) => this.usable(m.provider, built, auth));
  }

  scope(patterns: readonly string[], among: readonly Model[]): ModelScope {
    return resolveScope(patterns, among);
  }

  registerProvider(name: string, provider: RuntimeProvider): void {
    this.runtime.register(name, provider, this.rules(this.current().providers));
  }

  unregisterProvider(name: string): void {
    this.runtime.unregister(name);
  }

  registerModel(model: Model, stream: CustomStreamFunction): void {
    this.runtime.registerModel(model, stream);
  }

  unregisterModel(provider: string, id: string): void {
    this.runtime.unregisterModel(provider, id);
  }

  customStream(model: Model): CustomStreamFunction | undefined {
    return this.runtime.streamFor(model);
  }

  registeredApiKey(provider: string): string | undefined {
    return this.runtime.apiKey(provider, this.options.env ?? process.env);
  }

  /** A built-in provider's facts (name, api, base URL, key variables, default model). */
  providerInfo(provider: string): ProviderInfo | undefined {
    return this.current().providers.get(provider);
  }

  /** Whether a key for `provider` is configured: its environment variables, auth.json or an `apiKey`. */
  private usable(provider: string, built: Built, auth: Lazy<Set<string>>): boolean {
    const env = this.options.env ?? process.env;
    if (built.keyed.has(provider) || this.runtime.hasKey(provider)) return true;
    if ((built.providers.get(provider)?.env ?? []).some((name) => (env[name] ?? "") !== "")) return true;
    return auth.get().has(provider);
  }

  /**
   * The current build, redone when models.json, the refreshed catalog or the models store changed since
   * the last one.
   */
  private current(): Built {
    const store = fileStamp(join(this.options.agentDir, MODELS_STORE_FILE));
    const stamp = `${fileStamp(this.file)}|${refreshedStamp(this.options.agentDir)}|${store}|${this.runtime.generation}`;
    if (this.cached === undefined || this.cached.stamp !== stamp) {
      try {
        this.cached = { stamp, built: this.build(!stamp.startsWith("missing|")) };
      } catch (error) {
        this.cached = { stamp, error: error as Error };
      }
    }
    if (this.cached.error !== undefined) throw this.cached.error;
    return this.cached.built!;
  }

  /** What a providers layer is checked against: the built-in providers and the api names. */
  private rules(builtinProviders: ReadonlyMap<string, ProviderInfo>): ParseRules {
    return {
      builtinProviders: new Set(builtinProviders.keys()),
      apis: [...KNOWN_APIS, ...(this.options.extraApis ?? [])],
    };
  }

  private build(fileExists: boolean): Built {
    const env = this.options.env ?? process.env;
    const builtins = (this.options.builtins ?? loadBuiltinCatalog)(this.options.agentDir, env);
    const rules = this.rules(builtins.providers);
    // Catalogs fetched at run time (pi's models-store.json) replace those providers' shipped models.
    const stored = storedCatalogs(this.options.agentDir, new Set(builtins.providers.keys()));
    const draft = draftFrom([
      ...builtins.models.filter((m) => !stored.has(m.provider)),
      ...[...stored.values()].flat(),
    ]);
    const keyed = new Set<string>();
    const layer = (providers: ProvidersConfig, source: string, root: string): void => {
      for (const [name, p] of Object.entries(providers)) if (p.apiKey !== undefined) keyed.add(name);
      applyProviders(draft, providers, source, root, builtins.providers);
    };
    if (this.options.inlineProviders !== undefined) {
      const inline = checkProviders(INLINE_SOURCE, this.options.inlineProviders, rules, "config.providers");
      layer(inline, INLINE_SOURCE, "config.providers");
    }
    // Registered providers are the base models.json composes over, as in pi.
    this.runtime.apply(draft, builtins.providers);
    if (fileExists) {
      let text: string;
      try {
        text = readFileSync(this.file, "utf8");
      } catch (error) {
        throw new ModelsFileError(this.file, undefined, `cannot be read (${(error as Error).message})`);
      }
      layer(parseModelsFile(this.file, text, rules), this.file, "providers");
    }
    const models = this.runtime.withModels(finish(draft, env));
    return { models, providers: builtins.providers, defaultOrder: builtins.defaultOrder, keyed };
  }
}

/** A value computed on first use, so a lookup that needs no tie-break never reads auth.json. */
class Lazy<T> {
  private value: { v: T } | undefined;
  constructor(private readonly compute: () => T) {}
  get(): T {
    this.value ??= { v: this.compute() };
    return this.value.v;
  }
}

/** The provider names auth.json has entries for; an unreadable or broken file counts as none here. */
function authEntries(file: string): Set<string> {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return new Set(data !== null && typeof data === "object" && !Array.isArray(data) ? Object.keys(data) : []);
  } catch {
    return new Set();
  }
}

/** A cheap identity of the file's current version; "missing" when there is none. */
function fileStamp(file: string): string {
  try {
    const s = statSync(file);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw new ModelsFileError(file, undefined, `cannot be read (${(error as Error).message})`);
  }
}
