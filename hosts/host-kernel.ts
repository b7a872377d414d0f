/**
 * The kernel as the host runs it: the core kernel handed the host's policies for the platform's parts —
 * builtin and file plugin sources loaded and hashed (hosts/plugin-source.ts, file sources through jiti
 * with the host's own modules), I/O watched during setup, config and state checked against the plugin's
 * TypeBox schemas — with the host's reports on it (hosts/kernel-report.ts). "pi-host" exports this
 * kernel, so a plugin's own tests run the same kernel as `pi` does.
 */
import type { BootResult, KernelOptions as CoreKernelOptions, PluginEntry } from "../kernel/index.js";
import { runWatchingIo } from "./io-guard.js";
import { ReportingKernel } from "./kernel-report.js";
import { sourceImporter } from "./plugin-import.js";
import { checkState, SchemaError, validateConfig } from "./plugin-schema.js";
import { type SourceReadOptions, sourceHasher, sourceLoader } from "./plugin-source.js";

/** The core kernel's options, plus how the host reads plugin files and the modules their imports resolve to. */
export interface KernelOptions extends CoreKernelOptions, SourceReadOptions {
  /** Module specifiers resolved to the host's own modules when loading plugin source (e.g. "pi-host"). */
  virtualModules?: Record<string, unknown>;
}

/** A config error of a boot, with the field it names and the reason (the host's SchemaError). */
export interface ConfigError {
  pluginId: string;
  error: Error;
  field: string;
  message: string;
}

/** What the host's `boot` reports: the core result, each config error naming its field. */
export interface HostBootResult extends BootResult {
  configErrors: ConfigError[];
}

/** The plugin host's core with the host's policies; any option given explicitly wins. */
export class Kernel extends ReportingKernel {
  constructor(options: KernelOptions = {}) {
    const { virtualModules = {}, importSource = sourceImporter(virtualModules), hashSource, ...rest } = options;
    super({
      loadSource: sourceLoader({ importSource, hashSource }),
      sourceHash: sourceHasher({ hashSource }),
      watchSetup: runWatchingIo,
      validateConfig,
      checkState,
      ...rest,
    });
  }

  /** Starts a distribution; a config error names its field and reason. */
  override async boot(entries: PluginEntry[]): Promise<HostBootResult> {
    const result = await super.boot(entries);
    return { ...result, configErrors: result.configErrors.map(namedConfigError) };
  }
}

/** A boot's config error with the field and reason a SchemaError names (any other error: `config`). */
export function namedConfigError({ pluginId, error }: BootResult["configErrors"][number]): ConfigError {
  if (error instanceof SchemaError) return { pluginId, error, field: error.field, message: error.reason };
  return { pluginId, error, field: "config", message: error.message };
}
