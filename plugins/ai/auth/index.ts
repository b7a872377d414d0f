/**
 * The auth plugin: provides API keys (AuthContract) from the `--api-key` flag (this plugin's `apiKey`
 * config, which the CLI sets), `<agentDir>/auth.json`, the environment, and models.json custom
 * providers, in that order. Setup only declares; files are read when a key is asked for.
 */
import { Type } from "@sinclair/typebox";
import { AuthContract, agentDir } from "pi-host";
import { definePlugin } from "pi-host";
import { ApiKeyStore } from "./auth-store.js";

export default definePlugin({
  id: "auth",
  version: "1.0.0",
  description: "API keys: --api-key > auth.json (mode 0600) > environment > models.json",
  provides: [AuthContract],
  config: Type.Object({
    /** Folder holding auth.json and models.json; default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
    /** A key that beats every other source (the CLI's --api-key). */
    apiKey: Type.Optional(Type.String({ minLength: 1 })),
    /** The provider `apiKey` is for (the CLI's --provider); unset means the run's provider, whichever it is. */
    apiKeyProvider: Type.Optional(Type.String({ minLength: 1 })),
  }),
  setup(ctx) {
    ctx.provide(
      AuthContract,
      new ApiKeyStore({
        agentDir: agentDir(ctx.config.agentDir),
        flagKey: ctx.config.apiKey,
        flagProvider: ctx.config.apiKeyProvider,
        env: process.env,
        spawn: (command, args, options) => ctx.spawn(command, args, options),
      }),
    );
  },
});
