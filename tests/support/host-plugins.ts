/**
 * The host's `host/plugins` contract as tests boot it next to plugins under test: served from a real
 * PluginTable (hosts/plugin-table.ts), attached to the test's kernel once it exists.
 */
import { HostPluginsContract } from "../../contracts/host-plugins.js";
import { definePlugin, type PluginEntry } from "../../kernel/index.js";
import { PluginTable } from "../../hosts/plugin-table.js";

/** The id the entry runs under; the table leaves it out, as the real host leaves out its own plugin. */
export const TEST_HOST_PLUGINS_ID = "host-plugins";

/** A kernel entry providing `host/plugins`, and the table to attach to the kernel that boots it. */
export function hostPluginsEntry(): { entry: PluginEntry; table: PluginTable } {
  const table = new PluginTable([TEST_HOST_PLUGINS_ID]);
  const definition = definePlugin({
    id: TEST_HOST_PLUGINS_ID,
    version: "1.0.0",
    provides: [HostPluginsContract],
    setup(ctx) {
      ctx.provide(HostPluginsContract, { plugins: () => table.plugins() });
    },
  });
  return {
    entry: { id: TEST_HOST_PLUGINS_ID, source: { kind: "inline", label: TEST_HOST_PLUGINS_ID, definition } },
    table,
  };
}
