/**
 * The settings plugin: pi's settings files (SettingsContract). Global `<agentDir>/settings.json` and the
 * project's `.pi/settings.json` (only when the host trusts the project: its settings can run commands),
 * deep-merged over pi's defaults; set() writes one key atomically. Setup only declares; files are read
 * when settings are asked for.
 */
import { Type } from "@sinclair/typebox";
import { HostEnvironmentContract, projectFilesApply, readHostEnvironment } from "pi-host";
import { SettingsContract } from "pi-host";
import { agentDir, definePlugin } from "pi-host";
import { FileSettingsStore } from "./settings-store.js";

export default definePlugin({
  id: "settings",
  version: "1.0.0",
  description: "pi's settings.json: global deep-merged with project, over pi's defaults",
  provides: [SettingsContract],
  // The host's project-trust decision: without it (a kernel booted without a host) project settings stay out.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** Folder holding the global settings.json; default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
  }),
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    ctx.provide(
      SettingsContract,
      new FileSettingsStore({
        // Read when asked: the host's handle answers only once the boot has committed.
        get agentDir() {
          return agentDir(ctx.config.agentDir ?? readHostEnvironment(host)?.agentDir);
        },
        projectApplies: (cwd) => projectFilesApply(host, cwd),
      }),
    );
  },
});
