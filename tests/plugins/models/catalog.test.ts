import { existsSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModelsContract, type ModelCatalog } from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import modelsPlugin from "../../../plugins/ai/models/index.js";

/** Boots the models plugin with `config` and returns a handle to the catalog. */
async function bootCatalog(
  config: Record<string, unknown>,
): Promise<{ kernel: Kernel; catalog: Handle<ModelCatalog> }> {
  const kernel = new Kernel();
  const boot = await kernel.boot([
    { id: "models", source: { kind: "inline", label: "models", definition: modelsPlugin }, config },
  ]);
  expect(boot.configErrors).toEqual([]);
  expect(boot.errors).toEqual([]);
  return { kernel, catalog: kernel.use(ModelsContract) };
}

/** Writes models.json and moves its mtime forward, so a rewrite within one clock tick still counts. */
let bump = 0;
function writeModels(dir: string, data: unknown): string {
  const file = join(dir, "models.json");
  writeFileSync(file, typeof data === "string" ? data : JSON.stringify(data));
  const when = new Date(Date.now() + ++bump * 10_000);
  utimesSync(file, when, when);
  return file;
}

describe("models plugin: catalog", () => {
  let agentDir: string;
  let kernel: Kernel;
  let catalog: Handle<ModelCatalog>;

  beforeEach(async () => {
    agentDir = mkdtempSync(join(tmpdir(), "pi-models-"));
    ({ kernel, catalog } = await bootCatalog({ agentDir }));
  });
  afterEach(async () => {
    await kernel.shutdown();
  });

  it("lists the built-in providers' models (Anthropic, OpenAI, Google among them) with complete facts", () => {
    const models = catalog.call("list");
    const providers = new Set(models.map((m) => m.provider));
    for (const name of ["anthropic", "google", "openai", "groq", "xai", "deepseek", "openrouter", "mistral"])
      expect(providers.has(name), name).toBe(true);
    for (const id of [
      "anthropic/claude-sonnet-4-5",
      "anthropic/claude-opus-4-7",
      "anthropic/claude-haiku-4-5",
      "openai/gpt-5",
      "openai/gpt-4.1",
      "openai/o3",
      "google/gemini-2.5-pro",
      "google/gemini-3-pro-preview",
    ]) {
      expect(
        models.some((m) => `${m.provider}/${m.id}` === id),
        id,
      ).toBe(true);
    }
    for (const m of models) {
      expect(m.contextWindow, m.id).toBeGreaterThan(0);
      expect(m.maxTokens, m.id).toBeGreaterThan(0);
      expect(m.maxTokens, m.id).toBeLessThanOrEqual(m.contextWindow);
      expect(m.input, m.id).toContain("text");
      expect(m.baseUrl, m.id).toMatch(/^https:\/\//);
      expect(m.cost.input, m.id).toBeGreaterThanOrEqual(0);
    }
    const sonnet = catalog.call("find", "anthropic", "claude-sonnet-4-5")!;
    expect(sonnet).toMatchObject({
      api: "anthropic-messages",
      reasoning: true,
      contextWindow: 200_000,
      maxTokens: 64_000,
      cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });
    expect(catalog.call("find", "openai", "gpt-5")?.api).toBe("openai-responses");
    expect(catalog.call("find", "google", "gemini-2.5-flash")?.api).toBe("google-generative-ai");
    expect(catalog.call("find", "anthropic", "gpt-5")).toBeUndefined();
  });

  it("searches by every word across provider, id and name", () => {
    const sonnets = catalog.call("search", "sonnet");
    expect(sonnets.length).toBeGreaterThan(2);
    expect(sonnets.every((m) => m.id.includes("sonnet"))).toBe(true);
    const opus45 = catalog.call("search", "anthropic opus 4.5");
    expect(opus45.map((m) => m.id).sort()).toEqual(["claude-opus-4-5", "claude-opus-4-5-20251101"]);
    expect(catalog.call("search", "no-such-model-anywhere")).toEqual([]);
  });

  it("resolves provider/id, bare ids, names and a :thinking suffix", () => {
    // Several providers offer gpt-5.1 and o3; the one with a key decides, as in pi.
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    expect(catalog.call("resolve", "anthropic/claude-sonnet-4-5").model.id).toBe("claude-sonnet-4-5");
    expect(catalog.call("resolve", "gpt-5.1").model.provider).toBe("openai");
    expect(catalog.call("resolve", "Claude Sonnet 4.5").model.id).toBe("claude-sonnet-4-5-20250929");
    expect(catalog.call("resolve", "anthropic/claude-opus-4-5:high")).toMatchObject({
      model: { id: "claude-opus-4-5" },
      thinking: "high",
    });
    expect(catalog.call("resolve", "o3:off").thinking).toBe("off");
    expect(catalog.call("resolve", "gemini-2.5-pro", "google").model.provider).toBe("google");
    expect(catalog.call("resolve", "google/gemini-2.5-pro", "google").model.id).toBe("gemini-2.5-pro");
    expect(catalog.call("resolve", "gpt-5").thinking).toBeUndefined();
    vi.unstubAllEnvs();
  });

  it("refuses unknown models and providers with one line naming the closest matches", () => {
    const oneLine = (fn: () => unknown): string => {
      try {
        fn();
      } catch (error) {
        const message = (error as Error).message;
        expect(message).not.toContain("\n");
        return message;
      }
      throw new Error("expected a throw");
    };
    const typo = oneLine(() => catalog.call("resolve", "claude-sonet-4"));
    expect(typo).toMatch(/^unknown model "claude-sonet-4": did you mean \S+\/claude-sonnet-4/);
    expect(typo).not.toContain("gemini");
    expect(oneLine(() => catalog.call("resolve", "antropic/claude-sonnet-4-5"))).toBe(
      `unknown provider "antropic": did you mean anthropic?`,
    );
    expect(oneLine(() => catalog.call("resolve", "claude-sonnet-4-5", "opnai"))).toBe(
      `unknown provider "opnai": did you mean openai?`,
    );
    expect(oneLine(() => catalog.call("resolve", "claude-sonnet-4-5", "openai"))).toMatch(
      /^unknown model "claude-sonnet-4-5" for provider "openai"/,
    );
    expect(oneLine(() => catalog.call("resolve", "openai/gpt-5:extreme"))).toBe(
      `unknown thinking level "extreme" in "openai/gpt-5:extreme"; use one of off, minimal, low, medium, high, xhigh, max`,
    );
    // pi 1.6.0's `:max` asks for the strongest level any provider here takes.
    expect(catalog.call("resolve", "openai/gpt-5:max").thinking).toBe("xhigh");
    expect(oneLine(() => catalog.call("resolve", "qqqqqqqqqqqq"))).toBe(
      `unknown model "qqqqqqqqqqqq"; run "pi --list-models" to see the models`,
    );
    expect(oneLine(() => catalog.call("resolve", "  "))).toContain("empty model reference");
  });

  it("reads models.json lazily: a broken file does not fail setup, only the first use", async () => {
    writeModels(agentDir, "{ not json");
    const fresh = await bootCatalog({ agentDir });
    expect(() => fresh.catalog.call("list")).toThrow(/models\.json: not valid JSON/);
    await fresh.kernel.shutdown();
  });

  it("adds custom providers from models.json with pi's defaults, and ids with ':' still resolve", () => {
    writeModels(agentDir, {
      providers: {
        ollama: {
          baseUrl: "http://127.0.0.1:11434/v1",
          api: "openai-completions",
          apiKey: "ollama",
          compat: { supportsDeveloperRole: false },
          models: [
            { id: "llama3.1:8b" },
            {
              id: "qwen3",
              reasoning: true,
              input: ["text", "image"],
              contextWindow: 32000,
              maxTokens: 4096,
              compat: { maxTokensField: "max_tokens" },
            },
          ],
        },
      },
    });
    const llama = catalog.call("find", "ollama", "llama3.1:8b")!;
    expect(llama).toMatchObject({
      name: "llama3.1:8b",
      api: "openai-completions",
      baseUrl: "http://127.0.0.1:11434/v1",
      reasoning: false,
      input: ["text"],
      contextWindow: 128_000,
      maxTokens: 16_384,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      compat: { supportsDeveloperRole: false },
    });
    expect(catalog.call("find", "ollama", "qwen3")!.compat).toEqual({
      supportsDeveloperRole: false,
      maxTokensField: "max_tokens",
    });
    expect(catalog.call("resolve", "llama3.1:8b").model.provider).toBe("ollama");
    expect(catalog.call("resolve", "ollama/llama3.1:8b:low")).toMatchObject({
      model: { id: "llama3.1:8b" },
      thinking: "low",
    });
    expect(catalog.call("search", "ollama").length).toBe(2);
  });

  it("overrides built-ins: provider baseUrl, modelOverrides and models upserted by id", () => {
    writeModels(agentDir, {
      providers: {
        anthropic: {
          baseUrl: "https://proxy.example.com",
          modelOverrides: {
            "claude-sonnet-4-5": { name: "Sonnet via proxy", cost: { input: 1 }, maxTokens: 1000 },
            "no-such-id": { name: "ignored" },
          },
          models: [{ id: "claude-haiku-4-5", contextWindow: 50_000 }, { id: "claude-private" }],
        },
      },
    });
    const anthropic = catalog.call("list").filter((m) => m.provider === "anthropic");
    expect(anthropic.every((m) => m.baseUrl === "https://proxy.example.com")).toBe(true);
    expect(catalog.call("find", "anthropic", "claude-sonnet-4-5")).toMatchObject({
      name: "Sonnet via proxy",
      maxTokens: 1000,
      cost: { input: 1, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });
    // A custom model with a built-in id replaces it, inheriting the provider's api.
    expect(catalog.call("find", "anthropic", "claude-haiku-4-5")).toMatchObject({
      contextWindow: 50_000,
      reasoning: false,
      api: "anthropic-messages",
    });
    expect(catalog.call("find", "anthropic", "claude-private")).toMatchObject({
      api: "anthropic-messages",
      baseUrl: "https://proxy.example.com",
    });
    expect(anthropic.filter((m) => m.id === "claude-haiku-4-5")).toHaveLength(1);
    expect(catalog.call("list").some((m) => m.name === "ignored")).toBe(false);
  });

  it("gives a model added to a built-in provider without catalog models that provider's api and base URL", () => {
    writeModels(agentDir, {
      providers: { radius: { models: [{ id: "balanced" }] }, meta: { models: [{ id: "muse" }] } },
    });
    expect(catalog.call("find", "radius", "balanced")).toMatchObject({
      api: "pi-messages",
      baseUrl: "https://radius.pi.dev/v1",
    });
    expect(catalog.call("find", "meta", "muse")).toMatchObject({
      api: "openai-responses",
      baseUrl: "https://api.meta.ai/v1",
    });
  });

  it("lists a provider's models fetched at run time (pi's models-store.json) instead of its shipped ones", () => {
    const cost = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
    const model = (id: string, provider = "radius") => ({
      id,
      name: id,
      api: "pi-messages",
      provider,
      baseUrl: "https://gw.example/v1",
      reasoning: true,
      input: ["text"],
      cost,
      contextWindow: 100_000,
      maxTokens: 8_000,
    });
    const store = join(agentDir, "models-store.json");
    writeFileSync(
      store,
      JSON.stringify({
        radius: { models: [model("balanced"), { id: "half" }], checkedAt: 1 },
        "not-a-provider": { models: [model("x", "not-a-provider")], checkedAt: 1 },
      }),
    );
    expect(catalog.call("list").filter((m) => m.provider === "radius")).toEqual([
      { ...model("balanced"), input: ["text"] },
    ]);
    expect(catalog.call("list").some((m) => m.provider === "not-a-provider")).toBe(false);
    // models.json still comes after the store.
    writeModels(agentDir, { providers: { radius: { modelOverrides: { balanced: { name: "Balanced (mine)" } } } } });
    expect(catalog.call("find", "radius", "balanced")?.name).toBe("Balanced (mine)");
    // A changed store is read again; a broken one is a cache miss, not an error.
    writeFileSync(store, "{ not json");
    utimesSync(store, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(catalog.call("list").some((m) => m.provider === "radius")).toBe(false);
    expect(catalog.call("list").some((m) => m.provider === "anthropic")).toBe(true);
  });

  it("lets the provider with a key take a bare id several offer, and asks for provider/id on a tie", () => {
    writeModels(agentDir, {
      providers: {
        proxy: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-responses", apiKey: "k", models: [{ id: "gpt-5" }] },
      },
    });
    // Only the proxy has a key (its apiKey), so it wins over openai, azure and the other gpt-5s.
    expect(catalog.call("resolve", "gpt-5").model.provider).toBe("proxy");
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    try {
      expect(() => catalog.call("resolve", "gpt-5")).toThrow(
        `model "gpt-5" is offered by several providers (openai/gpt-5, proxy/gpt-5); say which with provider/id or --provider`,
      );
    } finally {
      vi.unstubAllEnvs();
    }
    expect(catalog.call("resolve", "proxy/gpt-5").model.baseUrl).toBe("http://127.0.0.1:1/v1");
    expect(catalog.call("resolve", "gpt-5", "openai").model.baseUrl).toBe("https://api.openai.com/v1");
  });

  it("re-reads models.json when it changes, and drops models when the file goes away", () => {
    const file = writeModels(agentDir, {
      providers: {
        local: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", apiKey: "x", models: [{ id: "first" }] },
      },
    });
    expect(catalog.call("find", "local", "first")).toBeDefined();
    writeModels(agentDir, {
      providers: {
        local: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", apiKey: "x", models: [{ id: "second" }] },
      },
    });
    expect(catalog.call("find", "local", "first")).toBeUndefined();
    expect(catalog.call("find", "local", "second")).toBeDefined();
    writeModels(agentDir, "[broken");
    expect(() => catalog.call("list")).toThrow(file);
    writeModels(agentDir, { providers: {} });
    expect(catalog.call("find", "local", "second")).toBeUndefined();
  });

  describe("a malformed models.json gives one line naming the file and the field", () => {
    const cases: Array<[string, unknown, string]> = [
      ["invalid JSON", "{ providers: ", "models.json: not valid JSON"],
      ["not an object", [1, 2], `models.json: must be an object like {"providers": {...}}`],
      ["no providers", { models: [] }, "models.json: providers: required"],
      [
        "a wrong type",
        {
          providers: {
            local: {
              baseUrl: "http://x",
              api: "openai-completions",
              apiKey: "k",
              models: [{ id: "a", contextWindow: "big" }],
            },
          },
        },
        "models.json: providers.local.models[0].contextWindow: expected integer",
      ],
      [
        "a negative size",
        {
          providers: {
            local: {
              baseUrl: "http://x",
              api: "openai-completions",
              apiKey: "k",
              models: [{ id: "a", maxTokens: -1 }],
            },
          },
        },
        "models.json: providers.local.models[0].maxTokens:",
      ],
      [
        "a missing id",
        {
          providers: {
            local: { baseUrl: "http://x", api: "openai-completions", apiKey: "k", models: [{ name: "a" }] },
          },
        },
        "models.json: providers.local.models[0].id: expected required property",
      ],
      [
        "a bad input kind",
        {
          providers: {
            local: {
              baseUrl: "http://x",
              api: "openai-completions",
              apiKey: "k",
              models: [{ id: "a", input: ["audio"] }],
            },
          },
        },
        "models.json: providers.local.models[0].input[0]:",
      ],
      [
        "a missing baseUrl",
        { providers: { local: { api: "openai-completions", apiKey: "k", models: [{ id: "a" }] } } },
        "models.json: providers.local.baseUrl: required when a new provider defines models",
      ],
      [
        "a missing apiKey",
        { providers: { local: { baseUrl: "http://x", api: "openai-completions", models: [{ id: "a" }] } } },
        "models.json: providers.local.apiKey: required",
      ],
      [
        "a missing api",
        { providers: { local: { baseUrl: "http://x", apiKey: "k", models: [{ id: "a" }] } } },
        "models.json: providers.local.models[0].api: no api",
      ],
      [
        "an unknown api",
        { providers: { local: { baseUrl: "http://x", api: "openai-completion", apiKey: "k", models: [{ id: "a" }] } } },
        `models.json: providers.local.api: unknown api "openai-completion"; use one of openai-completions, openai-responses, anthropic-messages, google-generative-ai, faux`,
      ],
      ["an empty provider", { providers: { local: {} } }, "models.json: providers.local: says nothing"],
      [
        "a duplicate id",
        {
          providers: {
            local: { baseUrl: "http://x", api: "openai-completions", apiKey: "k", models: [{ id: "a" }, { id: "a" }] },
          },
        },
        `models.json: providers.local.models[1].id: "a" appears twice`,
      ],
      [
        "authHeader without apiKey",
        { providers: { anthropic: { authHeader: true, baseUrl: "http://x" } } },
        'models.json: providers.anthropic.authHeader: needs "apiKey"',
      ],
    ];
    for (const [label, data, expected] of cases) {
      it(label, () => {
        const file = writeModels(agentDir, data);
        let message = "";
        try {
          catalog.call("list");
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toContain(file.replace(/models\.json$/, "") + expected);
        expect(message).not.toContain("\n");
      });
    }
  });

  it("resolves header values at request time: env names, !commands, and authHeader", () => {
    const marker = join(agentDir, "command-ran");
    writeModels(agentDir, {
      providers: {
        proxy: {
          baseUrl: "http://127.0.0.1:1",
          api: "anthropic-messages",
          apiKey: "PROXY_KEY_FOR_TEST",
          authHeader: true,
          headers: {
            "x-team": "TEAM_FOR_TEST",
            "x-secret": `!touch ${marker} && echo  s3cret  `,
            "x-literal": "plain",
            "x-braced": "team=${TEAM_FOR_TEST};id=$PROXY_KEY_FOR_TEST",
            "x-unset": "$NO_SUCH_VARIABLE_FOR_PI_TESTS",
          },
          models: [{ id: "m", headers: { "x-model": "yes" } }],
        },
        broken: {
          baseUrl: "http://127.0.0.1:1",
          api: "openai-completions",
          apiKey: "k",
          headers: { "x-fail": "!exit 3" },
          models: [{ id: "b" }],
        },
      },
    });
    process.env.PROXY_KEY_FOR_TEST = "pk-123";
    process.env.TEAM_FOR_TEST = "blue";
    try {
      const model = catalog.call("find", "proxy", "m")!;
      expect(existsSync(marker)).toBe(false); // listing and finding run no command
      expect(model.headers).toEqual({
        "x-team": "blue",
        "x-secret": "s3cret",
        "x-literal": "plain",
        // pi 1.6's $VAR / ${VAR}; a header naming an unset variable is left out, as pi leaves it out.
        "x-braced": "team=blue;id=pk-123",
        "x-model": "yes",
        Authorization: "Bearer pk-123",
      });
      expect(existsSync(marker)).toBe(true);
      const broken = catalog.call("find", "broken", "b")!;
      expect(() => broken.headers).toThrow(
        /models\.json: providers\.broken\.headers\.x-fail: command "exit 3" failed \(exit code 3\)$/,
      );
    } finally {
      delete process.env.PROXY_KEY_FOR_TEST;
      delete process.env.TEAM_FOR_TEST;
    }
  });
});

describe("models plugin: inline providers in config", () => {
  it("lets a distribution add models for another provider plugin's api, before models.json", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "pi-models-"));
    writeModels(agentDir, { providers: { faux: { modelOverrides: { "faux-1": { contextWindow: 999 } } } } });
    const { kernel, catalog } = await bootCatalog({
      agentDir,
      providers: { faux: { baseUrl: "http://localhost:0", api: "faux", apiKey: "none", models: [{ id: "faux-1" }] } },
    });
    // The inline layer comes first, so the user's models.json can still tune what the distribution ships.
    expect(catalog.call("resolve", "faux/faux-1").model).toMatchObject({
      api: "faux",
      baseUrl: "http://localhost:0",
      contextWindow: 999,
    });
    await kernel.shutdown();
  });

  it("rejects an api no plugin speaks, naming the config field", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "pi-models-"));
    const { kernel, catalog } = await bootCatalog({
      agentDir,
      extraApis: [],
      providers: { faux: { baseUrl: "http://localhost:0", api: "faux", apiKey: "none", models: [{ id: "faux-1" }] } },
    });
    expect(() => catalog.call("list")).toThrow(
      `plugins.json (models plugin config): config.providers.faux.api: unknown api "faux"`,
    );
    await kernel.shutdown();
  });
});
