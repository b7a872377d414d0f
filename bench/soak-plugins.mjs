/**
 * The soak's two inline plugins: the model catalog (one faux model with a 16k context window, so compaction
 * runs every few dozen prompts) and fixed settings. They are not edited during the soak; they stand in for
 * the models and settings plugins so the session has a model and compaction settings it can rely on.
 */

/** Builds the inline plugins with the host module `api` (dist/api.js). */
export function soakInlinePlugins(api) {
  const MODEL = {
    id: "faux-1",
    name: "Faux (soak)",
    api: "faux",
    provider: "faux",
    baseUrl: "http://localhost:0",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 16_000,
    maxTokens: 4_096,
  };
  const modelsPlugin = api.definePlugin({
    id: "soak-models",
    version: "1.0.0",
    provides: [api.ModelsContract],
    setup(ctx) {
      ctx.provide(api.ModelsContract, {
        list: () => [MODEL],
        find: (provider, id) => (provider === MODEL.provider && id === MODEL.id ? MODEL : undefined),
        search: () => [MODEL],
        resolve: (reference) => {
          if (reference !== "faux/faux-1" && reference !== "faux-1")
            throw new Error(`unknown model "${reference}"; the soak has only faux/faux-1`);
          return { model: MODEL };
        },
        initialModel: () => MODEL,
        // The soak runs no `--models`: every model it has is in scope.
        scope: (_patterns, among) => ({ models: among.map((model) => ({ model })), warnings: [] }),
      });
    },
  });
  const SETTINGS = { compaction: { enabled: true, reserveTokens: 4_000, keepRecentTokens: 4_000 } };
  const settingsPlugin = api.definePlugin({
    id: "soak-settings",
    version: "1.0.0",
    provides: [api.SettingsContract],
    setup(ctx) {
      ctx.provide(api.SettingsContract, {
        get: async () => structuredClone(SETTINGS),
        set: async () => {
          throw new Error("the soak's settings are fixed");
        },
      });
    },
  });
  return { MODEL, SETTINGS, modelsPlugin, settingsPlugin };
}
