/**
 * The kernel as the host runs it: the core kernel handed the host's policies for the platform's parts —
 * plugin source evaluated through jiti with the host's own modules, I/O watched during setup, config and
 * state checked against the plugin's TypeBox schemas, and child processes ended with a grace period. "pi-host" exports this kernel, so a plugin's own tests run the same
 * kernel as `pi` does.
 */
import { Kernel as CoreKernel, type KernelOptions as CoreKernelOptions } from "../kernel/index.js";
import { runWatchingIo } from "./io-guard.js";
import { sourceImporter } from "./plugin-import.js";
import { checkState, validateConfig } from "./plugin-schema.js";
import { endProcess } from "./processes.js";

/** The core kernel's options, plus the modules a source-loaded plugin's imports resolve to. */
export interface KernelOptions extends CoreKernelOptions {
  /** Module specifiers resolved to the host's own modules when loading plugin source (e.g. "pi-host"). */
  virtualModules?: Record<string, unknown>;
}

/** The plugin host's core with the host's policies; any option given explicitly wins. */
export class Kernel extends CoreKernel {
  constructor(options: KernelOptions = {}) {
    const { virtualModules = {}, ...rest } = options;
    super({
      importSource: sourceImporter(virtualModules),
      watchSetup: runWatchingIo,
      endProcess,
      validateConfig,
      checkState,
      ...rest,
    });
  }
}
