/**
 * Provider catalogs fetched at run time, which pi 1.6 keeps in `<agentDir>/models-store.json` as
 * `{ "<provider>": { "models": [Model, ...], "checkedAt": <ms> } }` (the Radius sign-in writes the
 * gateway's list there). For a built-in provider with such an entry, the stored models replace the
 * shipped ones, as pi does. The file is a cache: a broken file or entry is skipped, never an error.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MODELS_STORE_FILE, type Model } from "pi-host";

function isModel(value: unknown, provider: string): value is Model {
  const m = value as Record<string, unknown> | null;
  if (m === null || typeof m !== "object" || Array.isArray(m)) return false;
  const cost = m.cost as Record<string, unknown> | null;
  return (
    m.provider === provider &&
    typeof m.id === "string" &&
    m.id !== "" &&
    typeof m.name === "string" &&
    typeof m.api === "string" &&
    typeof m.baseUrl === "string" &&
    typeof m.reasoning === "boolean" &&
    Array.isArray(m.input) &&
    m.input.every((kind) => kind === "text" || kind === "image") &&
    cost !== null &&
    typeof cost === "object" &&
    ["input", "output", "cacheRead", "cacheWrite"].every((k) => typeof cost[k] === "number") &&
    typeof m.contextWindow === "number" &&
    typeof m.maxTokens === "number"
  );
}

/** The stored models of the providers in `known`, by provider (only providers with at least one). */
export function storedCatalogs(agentDir: string, known: ReadonlySet<string>): Map<string, Model[]> {
  const out = new Map<string, Model[]>();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(join(agentDir, MODELS_STORE_FILE), "utf8"));
  } catch {
    return out;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return out;
  for (const [provider, entry] of Object.entries(data as Record<string, unknown>)) {
    if (!known.has(provider)) continue;
    const models = (entry as { models?: unknown } | null)?.models;
    if (!Array.isArray(models)) continue;
    const valid = models
      .filter((m): m is Model => isModel(m, provider))
      .map((m) => ({
        id: m.id,
        name: m.name,
        api: m.api,
        provider,
        baseUrl: m.baseUrl,
        reasoning: m.reasoning,
        input: [...m.input],
        cost: {
          input: m.cost.input,
          output: m.cost.output,
          cacheRead: m.cost.cacheRead,
          cacheWrite: m.cost.cacheWrite,
        },
        contextWindow: m.contextWindow,
        maxTokens: m.maxTokens,
      }));
    if (valid.length > 0) out.set(provider, valid);
  }
  return out;
}
