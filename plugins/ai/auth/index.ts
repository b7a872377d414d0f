/**
 * The auth plugin: provides API keys (AuthContract) from the `--api-key` flag (read from the host
 * environment; this plugin's `apiKey` config when no flag was given), `<agentDir>/auth.json`, the environment, and models.json custom
 * providers, in that order. Setup only declares; files are read when a key is asked for.
 */
import { Type } from "@sinclair/typebox";
import { AccountAuthContract, AuthContract } from "pi-host";
import { HostEnvironmentContract, readHostEnvironment } from "pi-host";
import { agentDir, definePlugin, ownedSpawn } from "pi-host";
import { ApiKeyStore } from "./auth-store.js";

export default definePlugin({
  id: "auth",
  version: "1.0.0",
  description: "API keys and account sign-ins: --api-key > auth.json (mode 0600) > environment > models.json",
  provides: [AuthContract, AccountAuthContract],
  // The host's agent folder and its --api-key / --provider flags.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** Folder holding auth.json and models.json; default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
    /** A key that beats every other source (the CLI's --api-key). */
    apiKey: Type.Optional(Type.String({ minLength: 1 })),
    /** The provider `apiKey` is for (the CLI's --provider); unset means the run's provider, whichever it is. */
    apiKeyProvider: Type.Optional(Type.String({ minLength: 1 })),
  }),
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    // Read at the first call, not here: the host's handle answers only once the boot has committed.
    const runFlags = () => readHostEnvironment(host)?.flags ?? {};
    const store = new ApiKeyStore({
      get agentDir() {
        return agentDir(ctx.config.agentDir ?? readHostEnvironment(host)?.agentDir);
      },
      // A key given for this run beats the configured one; its provider is the run's --provider.
      get flagKey() {
        return runFlags().apiKey ?? ctx.config.apiKey;
      },
      get flagProvider() {
        const flags = runFlags();
        return flags.apiKey !== undefined ? flags.provider : ctx.config.apiKeyProvider;
      },
      env: process.env,
      spawn: (command, args, options) => ownedSpawn(ctx, command, args, options),
    });
    ctx.provide(AuthContract, store);
    ctx.provide(AccountAuthContract, store.oauth);
  },
});
