/**
 * The LLM router (`ai/llm`): one stream per call, routed by the model's wire api to the provider slot
 * of that api, with the key resolved (call option > auth > none for local servers), every failure as
 * one `error` event, and the provider leased for the whole stream so a reload mid-answer finishes it
 * on the old code.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  AiProviderContract,
  AuthContract,
  LlmContract,
  ModelsContract,
  type AssistantMessageEvent,
  type AuthStore,
  type Context,
  type Model,
  type ModelCatalog,
} from "../../../contracts/ai/index.js";
import { definePlugin, type PluginDefinition } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import llmPlugin from "../../../plugins/ai/llm/index.js";
import { createFauxProvider, type FauxProvider, type FauxOptions } from "../../../plugins/ai/provider-faux/faux.js";
import { fixedCatalogMembers } from "../../support/fixed-catalog.js";

const CONTEXT: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };

const inline = (definition: PluginDefinition<any, any>) => ({
  id: definition.id,
  source: { kind: "inline" as const, label: definition.id, definition },
});

function providerPlugin(id: string, faux: FauxProvider, version = "1.0.0"): PluginDefinition<any, any> {
  return definePlugin({
    id,
    version,
    provides: [AiProviderContract],
    setup: (ctx) => ctx.provide(AiProviderContract, faux, { key: faux.api }),
  });
}

function catalogPlugin(models: Model[]): PluginDefinition<any, any> {
  const catalog: ModelCatalog = {
    list: () => models,
    find: (provider, id) => models.find((m) => m.provider === provider && m.id === id),
    search: () => models,
    resolve: () => ({ model: models[0]! }),
    initialModel: () => undefined,
    scope: () => ({ models: [], warnings: [] }),
    ...fixedCatalogMembers,
  };
  return definePlugin({
    id: "test-models",
    version: "1.0.0",
    provides: [ModelsContract],
    setup: (ctx) => ctx.provide(ModelsContract, catalog),
  });
}

function authPlugin(keys: Record<string, string>): PluginDefinition<any, any> {
  const store: AuthStore = {
    apiKey: async (provider) => keys[provider],
    missingKeyMessage: (provider) => `no API key for ${provider}: set ${provider.toUpperCase()}_API_KEY`,
    setApiKey: async () => {},
  };
  return definePlugin({
    id: "test-auth",
    version: "1.0.0",
    provides: [AuthContract],
    setup: (ctx) => ctx.provide(AuthContract, store),
  });
}

/** A remote-looking provider (a key is needed) speaking its own api. */
function remoteFaux(api: string, provider: string, options: FauxOptions = {}): FauxProvider {
  return createFauxProvider({
    api,
    provider,
    models: [{ id: `${provider}-model`, baseUrl: `https://api.${provider}.test/v1` }],
    ...options,
  });
}

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

async function boot(definitions: PluginDefinition<any, any>[]): Promise<Kernel> {
  kernel = new Kernel();
  const result = await kernel.boot(definitions.map(inline));
  expect(result.errors).toEqual([]);
  return kernel;
}

const textOf = (message: { content: Array<{ type: string; text?: string }> }) =>
  message.content.map((b) => (b.type === "text" ? b.text : "")).join("");

describe("the LLM router", () => {
  it("sends each model to the provider of its api, with the stored key", async () => {
    const alpha = remoteFaux("alpha-api", "alpha", { responses: [{ content: "from alpha" }] });
    const beta = remoteFaux("beta-api", "beta", { responses: [{ content: "from beta" }] });
    const k = await boot([
      providerPlugin("alpha", alpha),
      providerPlugin("beta", beta),
      catalogPlugin([...alpha.models, ...beta.models]),
      authPlugin({ alpha: "key-a", beta: "key-b" }),
      llmPlugin,
    ]);
    const llm = k.use(LlmContract).api;
    expect(textOf(await llm.complete(beta.model(), CONTEXT))).toBe("from beta");
    expect(textOf(await llm.complete(alpha.model(), CONTEXT))).toBe("from alpha");
    expect(alpha.requests.map((r) => r.options?.apiKey)).toEqual(["key-a"]);
    expect(beta.requests.map((r) => r.options?.apiKey)).toEqual(["key-b"]);
  });

  it("lets the call's own key win over the stored one", async () => {
    const alpha = remoteFaux("alpha-api", "alpha", { responses: [{ content: "ok" }] });
    const k = await boot([
      providerPlugin("alpha", alpha),
      catalogPlugin(alpha.models),
      authPlugin({ alpha: "stored" }),
      llmPlugin,
    ]);
    await k.use(LlmContract).api.complete(alpha.model(), CONTEXT, { apiKey: "from-the-call" });
    expect(alpha.requests[0]!.options?.apiKey).toBe("from-the-call");
  });

  it("ends with one error event, and sends nothing, when a remote model has no key", async () => {
    const alpha = remoteFaux("alpha-api", "alpha", { responses: [{ content: "never" }] });
    const k = await boot([providerPlugin("alpha", alpha), catalogPlugin(alpha.models), authPlugin({}), llmPlugin]);
    const llm = k.use(LlmContract).api;
    const events: AssistantMessageEvent[] = [];
    for await (const event of llm.stream(alpha.model(), CONTEXT)) events.push(event);
    expect(events.map((e) => e.type)).toEqual(["error"]);
    const final = await llm.complete(alpha.model(), CONTEXT);
    expect(final).toMatchObject({
      stopReason: "error",
      errorMessage: "no API key for alpha: set ALPHA_API_KEY",
    });
    expect(alpha.requests).toHaveLength(0);
    expect(await llm.problem(alpha.model())).toBe("no API key for alpha: set ALPHA_API_KEY");
    expect(await llm.available()).toEqual([]);
  });

  it("needs no key for a server on this machine", async () => {
    const local = createFauxProvider({
      api: "local-api",
      provider: "local",
      models: [{ id: "m", baseUrl: "http://127.0.0.1:11434/v1" }],
      responses: [{ content: "local answer" }],
    });
    const k = await boot([providerPlugin("local", local), catalogPlugin(local.models), authPlugin({}), llmPlugin]);
    const llm = k.use(LlmContract).api;
    expect(textOf(await llm.complete(local.model(), CONTEXT))).toBe("local answer");
    expect(await llm.available()).toEqual(local.models);
  });

  it("names the missing provider plugin when no provider speaks the model's api", async () => {
    const orphan = remoteFaux("nobody-speaks-this", "orphan");
    const k = await boot([catalogPlugin(orphan.models), authPlugin({ orphan: "k" }), llmPlugin]);
    const llm = k.use(LlmContract).api;
    const expected =
      'no provider plugin speaks "nobody-speaks-this" (model orphan/orphan-model); enable one in plugins.json';
    expect(await llm.complete(orphan.model(), CONTEXT)).toMatchObject({ stopReason: "error", errorMessage: expected });
    expect(await llm.problem(orphan.model())).toBe(expected);
    expect(await llm.available()).toEqual([]);
  });

  it("reports an aborted call as aborted", async () => {
    const slow = remoteFaux("alpha-api", "alpha", {
      responses: [{ content: "a long answer that streams slowly ".repeat(20) }],
      tokensPerSecond: 40,
    });
    const k = await boot([
      providerPlugin("alpha", slow),
      catalogPlugin(slow.models),
      authPlugin({ alpha: "k" }),
      llmPlugin,
    ]);
    const controller = new AbortController();
    const stream = k.use(LlmContract).api.stream(slow.model(), CONTEXT, { signal: controller.signal });
    for await (const event of stream) {
      if (event.type === "text_delta") controller.abort();
    }
    expect((await stream.result()).stopReason).toBe("aborted");
  });

  it("finishes a stream on the provider generation it started on when the provider reloads mid-answer", async () => {
    const old = remoteFaux("alpha-api", "alpha", {
      responses: [{ content: "old code answers this one" }],
      tokensPerSecond: 40,
    });
    const fresh = remoteFaux("alpha-api", "alpha", { responses: [{ content: "new code" }] });
    const k = await boot([
      providerPlugin("alpha", old),
      catalogPlugin(old.models),
      authPlugin({ alpha: "k" }),
      llmPlugin,
    ]);
    const llm = k.use(LlmContract).api;
    const retired: number[] = [];
    k.on("kernel:retired", (e: { pluginId: string; generation: number }) => {
      if (e.pluginId === "alpha") retired.push(e.generation);
    });

    const first = llm.stream(old.model(), CONTEXT);
    const events = first[Symbol.asyncIterator]();
    while ((await events.next()).value?.type !== "text_delta");

    const committed = new Promise<void>((resolve) => k.on("kernel:commit", () => resolve()));
    const reload = k.reload("alpha", {
      source: { kind: "inline", label: "alpha", definition: providerPlugin("alpha", fresh, "1.0.1") },
    });
    await committed;
    expect(textOf(await llm.complete(old.model(), CONTEXT))).toBe("new code");
    expect(retired).toEqual([]);

    for (let step = await events.next(); !step.done; step = await events.next());
    expect(textOf(await first.result())).toBe("old code answers this one");
    expect(await reload).toMatchObject({ status: "committed", generation: 2 });
    expect(retired).toEqual([1]);
  });
});
