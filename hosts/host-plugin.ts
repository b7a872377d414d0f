/**
 * The host's own plugin, booted next to the distribution by every host (CLI and SDK): it provides
 * `host/environment` (working folder, agent folder, the project-trust decision, the user's per-run flags
 * and what installed packages bring), so plugins learn them without the host naming any of them,
 * `host/plugins` (a read-only copy of the plugin table, for plugins that list plugins), and the `/trust`
 * command, which saves a decision in trust.json for the next start (as in pi, a running session keeps
 * what it loaded).
 */
import { SESSION_EVENT } from "../contracts/agent-session.js";
import { CommandContract } from "../contracts/command.js";
import { HostEnvironmentContract, type HostEnvironment } from "../contracts/host-environment.js";
import { HostPluginsContract } from "../contracts/host-plugins.js";
import { HostTrustContract } from "../contracts/host-trust.js";
import { definePlugin, type PluginEntry } from "../kernel/index.js";
import { deepFreeze, type PluginTable } from "./plugin-table.js";
import { hostTrust } from "./trust-status.js";
import { saveTrustDecision } from "./trust.js";

/** The id the host's plugin runs under; `pi plugins` leaves it out, since no distribution can change it. */
export const HOST_PLUGIN_ID = "host-environment";

/**
 * The host plugin as a kernel entry for `environment` and `table` (a PluginTable the host attaches to
 * the kernel that boots this entry).
 */
export function hostPluginEntry(environment: HostEnvironment, table: PluginTable): PluginEntry {
  return {
    id: HOST_PLUGIN_ID,
    source: { kind: "inline", label: HOST_PLUGIN_ID, definition: hostPlugin(environment, table) },
  };
}

function hostPlugin(environment: HostEnvironment, table: PluginTable) {
  const frozen: HostEnvironment = deepFreeze(structuredClone(environment));
  return definePlugin({
    id: HOST_PLUGIN_ID,
    version: "1.0.0",
    description: "The host's facts for plugins (working folder, agent folder, project trust, plugin table) and /trust",
    provides: [HostEnvironmentContract, HostPluginsContract, HostTrustContract, CommandContract],
    setup(ctx) {
      ctx.provide(HostEnvironmentContract, { environment: () => frozen });
      ctx.provide(HostPluginsContract, { plugins: () => table.plugins() });
      ctx.provide(HostTrustContract, hostTrust(frozen.agentDir, frozen.projectTrust.trusted));
      ctx.provide(
        CommandContract,
        {
          name: "trust",
          description: "Trust this project folder from the next start (/trust no: do not trust it)",
          async run(args: string) {
            const word = args.trim().toLowerCase();
            const notice = (level: "info" | "error", message: string): void => {
              if (!ctx.signal.aborted) ctx.emit(SESSION_EVENT, { type: "notice", level, message });
            };
            if (word !== "" && word !== "yes" && word !== "no") {
              notice("error", `/trust takes no argument, "yes" or "no"; got "${args.trim()}"`);
              return;
            }
            const trusted = word !== "no";
            try {
              const dir = await saveTrustDecision(frozen.agentDir, frozen.cwd, trusted);
              notice(
                "info",
                `${trusted ? "Trusted" : "Not trusting"} ${dir} (saved in trust.json); restart pi to apply it`,
              );
            } catch (error) {
              notice("error", `could not save the trust decision: ${(error as Error).message}`);
            }
          },
        },
        { key: "trust" },
      );
    },
  });
}
