/**
 * The `pi-host` module as plugins see it: `import { definePlugin, ToolContract } from "pi-host"`. It is
 * the kernel's public API, every contract and kit/ (the shared helpers). Plugins loaded from source get
 * this very module instance through jiti's virtual modules, so contract tokens and errors are the host's
 * own, never a second copy.
 */
// The Reflect polyfill, imported here directly (not only through the kernel) so that in the bundle it is
// nearer to this entry than tsyringe is, and esbuild's chunk order evaluates it first.
import "../kernel/reflect.js";

export * from "../kernel/index.js";
/** The kernel with the host's policies (source loading, setup I/O watch, schemas); shadows the core one. */
export { Kernel, type ConfigError, type HostBootResult, type KernelOptions } from "./host-kernel.js";
export {
  formatLifecycleError,
  ReportingKernel,
  type KernelDescription,
  type PluginDescription,
} from "./kernel-report.js";
export { sourceLabel } from "./plugin-source.js";
/** The DI library itself, handed to source-loaded plugins as the "tsyringe" module (one shared copy). */
export * as tsyringe from "tsyringe";
export { SchemaError } from "./plugin-schema.js";
export * from "../contracts/ai/index.js";
export * from "../contracts/tool.js";
export * from "../contracts/tool-output.js";
export * from "../contracts/agent.js";
export * from "../contracts/agent-session.js";
export * from "../contracts/session.js";
export * from "../contracts/resources.js";
export * from "../contracts/mode.js";
export * from "../contracts/hooks.js";
export * from "../contracts/command.js";
export * from "../contracts/cli-command.js";
export * from "../contracts/ui.js";
export * from "../contracts/tui.js";
export * from "../contracts/tui-surfaces.js";
export * from "../contracts/packages.js";
export * from "../contracts/host-environment.js";
export * from "../contracts/host-plugins.js";
export * from "../contracts/host-trust.js";
export * from "../contracts/telemetry.js";
export * from "../contracts/durable-runs.js";
export * from "../kit/index.js";
/** TypeBox, for plugin config and tool parameter schemas: the host's own copy. */
export { Type, type Static, type TSchema } from "@sinclair/typebox";
export { hashSource, isSourceFile, sourceRoot } from "./source-policy.js";
export { watchPlugins, type PluginWatcher, type WatchOptions } from "./watch.js";
