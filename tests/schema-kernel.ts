/**
 * The core kernel with the host's schema policy (hosts/plugin-schema.ts) and reports (hosts/kernel-report.ts)
 * and nothing else of the host's: tests that run plugins on the bare kernel still get config defaults,
 * config and state checks and `describe()`, as the host kernel gives them.
 */
import { ReportingKernel } from "../hosts/kernel-report.js";
import { checkState, validateConfig } from "../hosts/plugin-schema.js";
import type { KernelOptions } from "../kernel/index.js";

/** The bare kernel, handed `validateConfig` and `checkState`; any option given explicitly wins. */
export class Kernel extends ReportingKernel {
  constructor(options: KernelOptions = {}) {
    super({ validateConfig, checkState, ...options });
  }
}
