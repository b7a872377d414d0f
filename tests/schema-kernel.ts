/**
 * The core kernel with the host's schema policy (hosts/plugin-schema.ts), reports (hosts/kernel-report.ts)
 * and plugin sources (builtin and file kinds, files evaluated by the runtime's own `import()`), and nothing
 * else of the host's: tests that run plugins on the bare kernel still get config defaults, config and state
 * checks, config errors naming their field, and `describe()`, as the host kernel gives them.
 */
import { type HostBootResult, namedConfigError } from "../hosts/host-kernel.js";
import { ReportingKernel } from "../hosts/kernel-report.js";
import { checkState, validateConfig } from "../hosts/plugin-schema.js";
import { sourceLoader } from "../hosts/plugin-source.js";
import type { KernelOptions, PluginEntry } from "../kernel/index.js";

/** The bare kernel, handed `validateConfig` and `checkState`; any option given explicitly wins. */
export class Kernel extends ReportingKernel {
  constructor(options: KernelOptions = {}) {
    super({ loadSource: sourceLoader({}), validateConfig, checkState, ...options });
  }

  /** Starts a distribution; a config error names its field and reason, as the host's kernel does. */
  override async boot(entries: PluginEntry[]): Promise<HostBootResult> {
    const result = await super.boot(entries);
    return { ...result, configErrors: result.configErrors.map(namedConfigError) };
  }
}
