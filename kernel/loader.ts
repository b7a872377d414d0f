/**
 * Where a plugin's code comes from. The kernel reads only an `inline` source (a definition in hand);
 * every other kind is the host's vocabulary (hosts/plugin-source.ts adds its kinds to PluginSources) and
 * is evaluated, checked and hashed by the host's `loadSource`, passed in KernelOptions.
 */
import type { PluginDefinition } from "./plugin.js";

/** Source kinds by name: the kernel's `inline`, and the host's, added with `declare module` (hosts/plugin-source.ts). */
export interface PluginSources {
  /** A definition in hand, labelled for reports. */
  inline: { kind: "inline"; label: string; definition: PluginDefinition<any, any> };
}

/** Any source the kernel may be handed: inline, or one of the host's kinds. */
export type PluginSource = PluginSources[keyof PluginSources];

/** A loaded definition with the content hash of the source it came from (none for inline code). */
export interface LoadedPlugin {
  definition: PluginDefinition<any, any>;
  hash: string | undefined;
}
