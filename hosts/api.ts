/**
 * The `pi-host` module as plugins see it: `import { definePlugin } from "pi-host"`. Plugins loaded from
 * source get this very module instance through jiti's virtual modules, so contract tokens and errors
 * are the host's own, never a second copy.
 */
export * from "../kernel/index.js";
export { watchPlugins, type PluginWatcher, type WatchOptions } from "./watch.js";
