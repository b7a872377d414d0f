/**
 * The faux provider plugin: a scripted AI provider (AiProviderContract, key and api "faux") for tests
 * and demos. The script comes from the `responses` config and/or a JSON `scriptFile`, read on the first
 * request. To reach it by model name, give the models plugin a "faux" provider in its config, e.g.
 * `{"providers": {"faux": {"api": "faux", "baseUrl": "http://localhost:0", "apiKey": "none",
 * "models": [{"id": "faux-1"}]}}}`. Tests that need turns computed from the context use
 * `createFauxProvider` from ./faux.ts directly.
 */
import { resolve } from "node:path";
import { Type } from "@sinclair/typebox";
import { AiProviderContract } from "pi-host";
import { definePlugin } from "pi-host";
import { createFauxProvider } from "./faux.js";
import { FauxTurnSchema, loadScriptFile } from "./script.js";

export default definePlugin({
  id: "provider-faux",
  version: "1.0.0",
  description: 'Scripted AI provider (api "faux") for tests and demos',
  provides: [AiProviderContract],
  config: Type.Object({
    /** Scripted turns, one per request, before those of `scriptFile`. */
    responses: Type.Array(FauxTurnSchema, { default: [] }),
    /** A JSON file of turns (`[...]` or `{"responses": [...]}`), relative to the working folder. */
    scriptFile: Type.Optional(Type.String({ minLength: 1 })),
    /** Stream pacing; 0 streams as fast as the consumer reads. */
    tokensPerSecond: Type.Number({ minimum: 0, default: 0 }),
    /** Tokens per delta event (a token is 4 characters). */
    tokensPerDelta: Type.Number({ exclusiveMinimum: 0, default: 1 }),
  }),
  setup(ctx) {
    const { scriptFile } = ctx.config;
    const provider = createFauxProvider({
      responses: ctx.config.responses,
      load: scriptFile === undefined ? undefined : () => loadScriptFile(resolve(scriptFile)),
      tokensPerSecond: ctx.config.tokensPerSecond,
      tokensPerDelta: ctx.config.tokensPerDelta,
    });
    ctx.provide(AiProviderContract, provider, { key: provider.api });
  },
});
