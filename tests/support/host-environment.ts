/**
 * The host's `host/environment` plugin as tests boot it next to a plugin under test: the CLI and SDK
 * provide it with their project-trust decision; a plugin booted alone has none and keeps project files
 * out, so tests of project files say the project is trusted (or not) this way.
 */
import { type HostFlags, HostEnvironmentContract, type ProjectTrust } from "../../contracts/host-environment.js";
import { definePlugin, type PluginEntry } from "../../kernel/index.js";

/**
 * A kernel entry providing the host environment for `cwd` with the given trust (trusted by a saved
 * decision by default) and, when given, the run's flags.
 */
export function hostEnvironmentEntry(
  cwd: string,
  agentDir: string,
  projectTrust: ProjectTrust = { trusted: true, source: "saved" },
  flags?: HostFlags,
): PluginEntry {
  const definition = definePlugin({
    id: "host",
    version: "1.0.0",
    provides: [HostEnvironmentContract],
    setup(ctx) {
      ctx.provide(HostEnvironmentContract, {
        environment: () => ({ cwd, agentDir, projectTrust, ...(flags ? { flags } : {}) }),
      });
    },
  });
  return { id: "host", source: { kind: "inline", label: "host", definition } };
}
