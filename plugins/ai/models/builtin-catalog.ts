/**
 * The built-in catalog, read only when a model is first resolved or listed (never at import, so a cold
 * `pi --version` or a run that never asks for a model pays nothing). It comes from
 * `<agentDir>/models-dev.json` when `pi update --models` saved one there (models.dev data, merged with
 * the shipped overlay as the generator does), else from the shipped `builtin-catalog.json`.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildCatalog,
  type CatalogData,
  type CatalogOverlay,
  type CatalogProvider,
  type Model,
  parseModelsDev,
  REFRESHED_CATALOG_FILE,
} from "pi-host";

/** A provider's facts without its models: how to reach it, its key variables, its default model. */
export type ProviderInfo = Omit<CatalogProvider, "models">;

/** The catalog as the models plugin uses it. */
export interface BuiltinCatalog {
  models: Model[];
  providers: Map<string, ProviderInfo>;
  /** Providers in the order pi 1.6 tries their default models when nothing chose a model. */
  defaultOrder: string[];
  /** Where it was read from (a path), for error messages. */
  source: string;
}

/**
 * The shipped data files sit next to this module in the source tree and in an ejected copy; the build
 * copies them next to the bundle that holds this module.
 */
function shippedFile(name: string): string {
  const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
  if (!existsSync(path)) throw new Error(`the models plugin's ${name} is missing (looked at ${path}); reinstall pi`);
  return path;
}

/** A cheap identity of the refreshed file's current version; "missing" when there is none. */
export function refreshedStamp(agentDir: string): string {
  try {
    const s = statSync(join(agentDir, REFRESHED_CATALOG_FILE));
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return "missing";
  }
}

/** Reads the catalog: the refreshed models.dev file when there is one, else the shipped file. */
export function loadBuiltinCatalog(agentDir: string, env: NodeJS.ProcessEnv): BuiltinCatalog {
  const refreshed = join(agentDir, REFRESHED_CATALOG_FILE);
  if (existsSync(refreshed)) {
    const overlay = JSON.parse(readFileSync(shippedFile("catalog-overlay.json"), "utf8")) as CatalogOverlay;
    let text: string;
    try {
      text = readFileSync(refreshed, "utf8");
    } catch (error) {
      throw new Error(`${refreshed}: cannot be read (${(error as Error).message})`);
    }
    let data: CatalogData;
    try {
      data = buildCatalog(parseModelsDev(text, refreshed), overlay, refreshed);
    } catch (error) {
      throw new Error(`${(error as Error).message}; run "pi update --models" again or delete the file`);
    }
    return toModels(data, refreshed, env);
  }
  const shipped = shippedFile("builtin-catalog.json");
  return toModels(JSON.parse(readFileSync(shipped, "utf8")) as CatalogData, shipped, env);
}

/** Catalog data as contract models: provider fields copied onto each model, `{NAME}` filled from `env`. */
export function toModels(data: CatalogData, source: string, env: NodeJS.ProcessEnv): BuiltinCatalog {
  const models: Model[] = [];
  const providers = new Map<string, ProviderInfo>();
  for (const { models: entries, ...provider } of data.providers) {
    providers.set(provider.id, provider);
    for (const entry of entries) {
      models.push({
        id: entry.id,
        name: entry.name,
        api: entry.api ?? provider.api,
        provider: provider.id,
        baseUrl: fillPlaceholders(entry.baseUrl ?? provider.baseUrl, env),
        reasoning: entry.reasoning,
        input: [...entry.input],
        cost: { ...entry.cost },
        contextWindow: entry.contextWindow,
        maxTokens: entry.maxTokens,
        ...(provider.compat !== undefined ? { compat: { ...provider.compat } } : {}),
      });
    }
  }
  return { models, providers, defaultOrder: [...(data.defaultOrder ?? [])], source };
}

/** `https://.../{CLOUDFLARE_ACCOUNT_ID}/...` with the variable's value, when it is set. */
function fillPlaceholders(url: string, env: NodeJS.ProcessEnv): string {
  return url.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const value = env[name];
    return value !== undefined && value !== "" ? value : whole;
  });
}
