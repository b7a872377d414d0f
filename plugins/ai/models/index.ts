/**
 * The models plugin: provides the model catalog (ModelsContract) from the built-in catalog (generated
 * from models.dev data by scripts/generate-models.mjs, or refreshed by `pi update --models`), the
 * plugin's inline `providers` config and `<agentDir>/models.json` in pi's format. Setup only declares;
 * the data and the files are read on first use and again whenever they change.
 */
import { Type } from "@sinclair/typebox";
import { ModelsContract, agentDir } from "pi-host";
import { definePlugin } from "pi-host";
import { HostEnvironmentContract, readHostEnvironment } from "pi-host";
import { ModelCatalogStore } from "./catalog.js";
import { ProviderConfigSchema } from "./models-file.js";

export default definePlugin({
  id: "models",
  version: "1.0.0",
  description: "Model catalog: pi's built-in providers with models.dev data, plus models.json custom providers",
  provides: [ModelsContract],
  // The host's agent folder, when this plugin's config names none.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** Folder holding models.json; default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
    /** Wire protocols besides the four built-in ones that models may name (keys of other provider plugins). */
    extraApis: Type.Array(Type.String({ minLength: 1 }), { default: ["faux"] }),
    /** Providers in models.json's format, applied before models.json (a distribution can ship models). */
    providers: Type.Optional(Type.Record(Type.String(), ProviderConfigSchema)),
  }),
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    ctx.provide(
      ModelsContract,
      new ModelCatalogStore({
        // Read when asked: the host's handle answers only once the boot has committed.
        get agentDir() {
          return agentDir(ctx.config.agentDir ?? readHostEnvironment(host)?.agentDir);
        },
        inlineProviders: ctx.config.providers,
        extraApis: ctx.config.extraApis,
      }),
    );
  },
});
