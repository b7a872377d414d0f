/**
 * The LLM router plugin: provides `ai/llm`, the one place that turns a model into a provider call.
 * Stateless, so it swaps with no wait; replacing it (a proxy, a recorder, a cost guard) changes how
 * every caller reaches every model.
 */
import {
  AccountAuthContract,
  AiProviderContract,
  AuthContract,
  definePlugin,
  LlmContract,
  ModelsContract,
} from "pi-host";
import { createRouter } from "./router.js";

export default definePlugin({
  id: "llm",
  version: "1.0.0",
  description: "Routes every model call to the provider of its API, with its key; failures as stream events",
  provides: [LlmContract],
  requires: [
    ModelsContract,
    { contract: AiProviderContract },
    { contract: AuthContract, optional: true },
    { contract: AccountAuthContract, optional: true },
  ],
  setup(ctx) {
    ctx.provide(
      LlmContract,
      createRouter({
        providers: ctx.useAll(AiProviderContract),
        auth: ctx.use(AuthContract),
        models: ctx.use(ModelsContract),
        accounts: ctx.use(AccountAuthContract),
      }),
    );
  },
});
