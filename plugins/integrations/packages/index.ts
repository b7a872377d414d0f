/**
 * The packages plugin: `pi install/remove/update/list` (PackagesContract) for npm, git and local-path
 * sources in pi's `packages` setting. npm and git run as child processes owned by this plugin's
 * generation; every change is staged and moved into place atomically (see manager.ts). Setup only
 * declares; nothing is read until a command asks. The `packages` key is written under pi's settings
 * lock by this plugin itself (a read-modify-write); the settings plugin is required so that a boot
 * order puts it first, as both share settings.json.
 */
import { Type } from "@sinclair/typebox";
import { PackagesContract, agentDir } from "pi-host";
import { SettingsContract } from "pi-host";
import { definePlugin, ownedSpawn } from "pi-host";
import { HostEnvironmentContract, readHostEnvironment } from "pi-host";
import { FilePackageManager } from "./manager.js";

export default definePlugin({
  id: "packages",
  version: "1.0.0",
  description: "pi install/remove/update/list for npm:, git: and local packages, installed atomically",
  provides: [PackagesContract],
  // Settings, and the host's agent folder when this plugin's config names none.
  requires: [SettingsContract, { contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** The global scope's folder (settings.json, npm/, git/); default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
  }),
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    ctx.provide(
      PackagesContract,
      new FilePackageManager({
        // Read when asked: the host's handle answers only once the boot has committed.
        get agentDir() {
          return agentDir(ctx.config.agentDir ?? readHostEnvironment(host)?.agentDir);
        },
        spawn: (command, args, options) => ownedSpawn(ctx, command, args, options),
      }),
    );
  },
});
