import { describe, expect, it } from "vitest";
import { AiProviderContract, LlmContract, ModelsContract, type ModelCatalog } from "../../../contracts/ai/index.js";
import { DEFAULT_COMPACTION, SessionCompactorContract, type SessionEntry } from "../../../contracts/session.js";
import { definePlugin, type PluginDefinition } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import llmPlugin from "../../../plugins/ai/llm/index.js";
import { createFauxProvider } from "../../../plugins/ai/provider-faux/faux.js";
import compactionPlugin from "../../../plugins/session/compaction/index.js";
import { PathBuilder } from "./harness.js";
import { fixedCatalogMembers } from "../../support/fixed-catalog.js";

const inline = (definition: PluginDefinition<any, any>) => ({
  id: definition.id,
  source: { kind: "inline" as const, label: definition.id, definition },
});

describe("compaction plugin", () => {
  it("boots (declare-only setup) and serves shouldCompact, compact and summarizeBranch through a handle, asking the named model through the LLM router", async () => {
    const faux = createFauxProvider({ responses: [{ content: "SUMMARY" }, { content: "BRANCH SUMMARY" }] });
    const catalog: ModelCatalog = {
      list: () => faux.models,
      find: () => faux.model(),
      search: () => faux.models,
      resolve: () => ({ model: faux.model() }),
      initialModel: () => undefined,
      scope: () => ({ models: [], warnings: [] }),
      ...fixedCatalogMembers,
    };
    const providers = definePlugin({
      id: "test-ai",
      version: "1.0.0",
      provides: [AiProviderContract, ModelsContract],
      setup(ctx) {
        ctx.provide(AiProviderContract, faux, { key: faux.api });
        ctx.provide(ModelsContract, catalog);
      },
    });
    const kernel = new Kernel();
    try {
      const boot = await kernel.boot([inline(providers), inline(llmPlugin), inline(compactionPlugin)]);
      expect(boot.errors).toEqual([]);
      const compactor = kernel.use(SessionCompactorContract);
      expect(compactor.api.shouldCompact(183_617, 200_000, DEFAULT_COMPACTION)).toBe(true);
      expect(compactor.api.shouldCompact(183_616, 200_000, DEFAULT_COMPACTION)).toBe(false);

      const session = new PathBuilder();
      session.user(15_000);
      session.assistant(10);
      const kept = session.user(20_000);
      session.assistant(10);
      const model = faux.model();
      const result = await compactor.api.compact(session.path as SessionEntry[], DEFAULT_COMPACTION, model, {});
      expect(result).toMatchObject({ summary: "SUMMARY", firstKeptEntryId: kept.id, tokensBefore: 35_020 });
      const branch = await compactor.api.summarizeBranch(session.path as SessionEntry[], model, {});
      expect(branch!.summary.endsWith("BRANCH SUMMARY")).toBe(true);

      // Both requests went to the named model with reasoning off and no tools, as one user message.
      expect(faux.requests).toHaveLength(2);
      for (const request of faux.requests) {
        expect(request.model).toEqual(model);
        expect(request.options?.reasoning).toBe("off");
        expect(request.context.tools ?? []).toEqual([]);
        expect(request.context.messages.map((m) => m.role)).toEqual(["user"]);
      }
      expect(kernel.use(LlmContract).available).toBe(true);
    } finally {
      await kernel.shutdown();
    }
  });

  it("fails a compaction with the router's error when no provider speaks the model's api", async () => {
    const faux = createFauxProvider();
    const models = definePlugin({
      id: "test-models",
      version: "1.0.0",
      provides: [ModelsContract],
      setup: (ctx) =>
        ctx.provide(ModelsContract, {
          list: () => faux.models,
          find: () => faux.model(),
          search: () => faux.models,
          resolve: () => ({ model: faux.model() }),
          initialModel: () => undefined,
          scope: () => ({ models: [], warnings: [] }),
          ...fixedCatalogMembers,
        }),
    });
    const kernel = new Kernel();
    try {
      const boot = await kernel.boot([inline(models), inline(llmPlugin), inline(compactionPlugin)]);
      expect(boot.errors).toEqual([]);
      const session = new PathBuilder();
      session.user(15_000);
      session.assistant(10);
      session.user(20_000);
      session.assistant(10);
      await expect(
        kernel
          .use(SessionCompactorContract)
          .api.compact(session.path as SessionEntry[], DEFAULT_COMPACTION, faux.model(), {}),
      ).rejects.toThrow('no provider plugin speaks "faux"');
    } finally {
      await kernel.shutdown();
    }
  });
});
