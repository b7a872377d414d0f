/**
 * `pi --list-models [search]`: the model catalog as a table, with where each provider's API key would
 * come from, so a user can see at a glance which models are ready to use. Reads the catalog and keys
 * through their contracts; the host knows no plugin.
 */
import { AuthContract, ModelsContract, type AuthStore, type Model, type ModelCatalog } from "../contracts/ai/index.js";
import type { Handle, Kernel } from "../kernel/index.js";

/** What the listing printed, or why it could not: `badInput` for broken config files (exit 2). */
export type ListOutcome = { ok: true; text: string } | { ok: false; message: string; badInput: boolean };

/** The AuthStore member that names a key's source; the auth plugin has it, the contract not yet. */
interface KeySourceReader {
  keySource(provider: string): Promise<{ label: string }>;
}

/** Lists the catalog, filtered by `search` (every word must match) and `provider`. */
export async function listModels(
  kernel: Kernel,
  search: string | undefined,
  provider: string | undefined,
): Promise<ListOutcome> {
  const catalog = kernel.use(ModelsContract);
  if (!catalog.available)
    return {
      ok: false,
      message: `no plugin provides the model catalog ("${ModelsContract.id}"); enable one in plugins.json`,
      badInput: true,
    };
  let models: Model[];
  try {
    models = search === undefined ? catalog.api.list() : catalog.api.search(search);
  } catch (error) {
    // Listing only fails when a config file (models.json, the plugin's config) is broken.
    return { ok: false, message: (error as Error).message, badInput: true };
  }
  if (provider !== undefined) models = models.filter((m) => m.provider === provider);
  if (models.length === 0) {
    const found = closestOrError(catalog, search, provider);
    if (typeof found === "string") return { ok: false, message: found, badInput: false };
    models = [found];
  }
  models.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id));
  let sources: Map<string, string>;
  try {
    sources = await keySources(kernel, [...new Set(models.map((m) => m.provider))]);
  } catch (error) {
    return { ok: false, message: (error as Error).message, badInput: true };
  }
  return { ok: true, text: formatModels(models, sources) };
}

/**
 * When nothing matched: the contract's resolve either finds one model (an exact reference such as
 * `gpt-5:high` or a model's name) or throws one line naming the closest matches.
 */
function closestOrError(
  catalog: Handle<ModelCatalog>,
  search: string | undefined,
  provider: string | undefined,
): Model | string {
  try {
    return catalog.api.resolve(search ?? "", provider).model;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The key source label per provider: flag, auth.json, env VAR, models.json or none. */
async function keySources(kernel: Kernel, providers: string[]): Promise<Map<string, string>> {
  const auth = kernel.use(AuthContract);
  const store = auth.available ? (auth.peek() as AuthStore & Partial<KeySourceReader>) : undefined;
  const out = new Map<string, string>();
  for (const provider of providers) {
    if (store === undefined) out.set(provider, "none");
    else if (typeof store.keySource === "function") out.set(provider, (await store.keySource(provider)).label);
    else out.set(provider, (await auth.api.apiKey(provider)) === undefined ? "none" : "configured");
  }
  return out;
}

/** pi's compact token counts: 200K, 1M, 1.1M. */
export function formatTokenCount(count: number): string {
  if (count >= 1_000_000) return `${trim(count / 1_000_000)}M`;
  if (count >= 1_000) return `${trim(count / 1_000)}K`;
  return String(count);
}

function trim(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** An aligned table: pi's columns plus where the API key comes from. */
export function formatModels(models: Model[], sources: Map<string, string>): string {
  const rows = [
    ["provider", "model", "context", "max-out", "thinking", "images", "key"],
    ...models.map((m) => [
      m.provider,
      m.id,
      formatTokenCount(m.contextWindow),
      formatTokenCount(m.maxTokens),
      m.reasoning ? "yes" : "no",
      m.input.includes("image") ? "yes" : "no",
      sources.get(m.provider) ?? "none",
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n")}\n`;
}
