/**
 * The router's request span: `pi.ai.request` under the call's `options.telemetry`, with pi 1.6's and the
 * GenAI conventions' attributes, handed to the provider as its own `options.telemetry`, and ended at the
 * final event; a failed answer fails the span; a call without a parent span opens none.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  AiProviderContract,
  type Context,
  LlmContract,
  type Model,
  ModelsContract,
} from "../../../contracts/ai/index.js";
import { NOOP_TELEMETRY_SPAN } from "../../../contracts/telemetry.js";
import { definePlugin } from "../../../kernel/index.js";
import llmPlugin from "../../../plugins/ai/llm/index.js";
import { createFauxProvider, type FauxProvider, fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { SpanLog } from "../../support/recording-span.js";
import { Kernel } from "../../schema-kernel.js";
import { fixedCatalogMembers } from "../../support/fixed-catalog.js";

const CONTEXT: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

/** The router over one faux provider (keyless) and a catalog of its models. */
async function routerOver(faux: FauxProvider) {
  const provider = definePlugin({
    id: "faux",
    version: "1.0.0",
    provides: [AiProviderContract],
    setup: (ctx) => ctx.provide(AiProviderContract, faux, { key: faux.api }),
  });
  const models = faux.models;
  const catalog = definePlugin({
    id: "test-models",
    version: "1.0.0",
    provides: [ModelsContract],
    setup: (ctx) =>
      ctx.provide(ModelsContract, {
        list: () => models,
        find: (p: string, id: string) => models.find((m: Model) => m.provider === p && m.id === id),
        search: () => models,
        resolve: () => ({ model: models[0]! }),
        initialModel: () => undefined,
        scope: () => ({ models: [], warnings: [] }),
        ...fixedCatalogMembers,
      }),
  });
  kernel = new Kernel();
  const inline = (definition: any) => ({
    id: definition.id,
    source: { kind: "inline" as const, label: definition.id, definition },
  });
  const result = await kernel.boot([provider, catalog, llmPlugin].map(inline));
  expect(result.errors).toEqual([]);
  return kernel.use(LlmContract).api;
}

describe("the router's request span", () => {
  it("opens pi.ai.request under options.telemetry, passes it to the provider, and records usage and blocks", async () => {
    const faux = createFauxProvider({
      responses: [
        {
          content: [{ type: "text", text: "Hello!" }, fauxToolCall("read", { path: "a.txt" }, "t1")],
          usage: { input: 10, output: 4, cacheRead: 6, cacheWrite: 2 },
          responseId: "resp-1",
        },
      ],
    });
    const llm = await routerOver(faux);
    const log = new SpanLog();
    const turn = log.root("pi.agent.turn");
    const message = await llm.complete(faux.model(), CONTEXT, { telemetry: turn, reasoning: "high", maxTokens: 99 });
    expect(message.stopReason).toBe("toolUse");

    const [request] = log.named("pi.ai.request");
    expect(request!.parent?.name).toBe("pi.agent.turn");
    expect(request!.ended).toBe(true);
    expect(request!.error).toBeUndefined();
    const model = faux.model();
    expect(request!.attributes).toMatchObject({
      provider: model.provider,
      api: model.api,
      model: model.id,
      reasoning: "high",
      stop: "toolUse",
      "usage.input": 10,
      "usage.output": 4,
      "usage.cache_read": 6,
      "usage.cache_write": 2,
      "response.id": "resp-1",
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": model.id,
      "gen_ai.request.max_tokens": 99,
      "gen_ai.usage.input_tokens": 18,
      "gen_ai.usage.output_tokens": 4,
      "gen_ai.usage.cache_read.input_tokens": 6,
      "gen_ai.usage.cache_creation.input_tokens": 2,
      "gen_ai.response.id": "resp-1",
      "gen_ai.response.finish_reasons": ["toolUse"],
    });
    expect(request!.attributes["gen_ai.response.time_to_first_chunk"]).toBeGreaterThanOrEqual(0);
    expect(request!.events.map((e) => e.name)).toEqual(["pi.ai.first_chunk", "pi.ai.block", "pi.ai.block"]);
    expect(request!.events.slice(1).map((e) => e.attributes)).toEqual([
      { type: "text", index: 0, chars: 6 },
      { type: "tool_call", index: 1, chars: expect.any(Number), tool: "read" },
    ]);
    // The provider got the request span, not the caller's.
    const handed = faux.requests[0]!.options?.telemetry;
    expect(handed?.recording).toBe(true);
    handed!.startSpan("provider.http").end();
    expect(log.named("provider.http")[0]!.parent).toBe(request);
  });

  it("an answer that ends in an error fails the span with the error kind and at most 500 characters", async () => {
    const faux = createFauxProvider({ responses: [{ stopReason: "error", errorMessage: "x".repeat(800) }] });
    const llm = await routerOver(faux);
    const log = new SpanLog();
    await llm.complete(faux.model(), CONTEXT, { telemetry: log.root() });
    const [request] = log.named("pi.ai.request");
    expect(request!.attributes).toMatchObject({ stop: "error", "error.type": "provider_error" });
    expect(request!.error).toEqual({ name: "provider_error", message: "x".repeat(500) });
    expect(request!.ended).toBe(true);
  });

  it("a call without a parent span opens none and hands the provider the no-op span", async () => {
    const faux = createFauxProvider({ responses: [{ content: "hi" }] });
    const llm = await routerOver(faux);
    await llm.complete(faux.model(), CONTEXT);
    expect(faux.requests[0]!.options?.telemetry).toBe(NOOP_TELEMETRY_SPAN);
  });
});
