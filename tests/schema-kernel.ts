/**
 * The core kernel with the host's schema policy (hosts/plugin-schema.ts) and nothing else of the host's:
 * tests that run plugins on the bare kernel still get config defaults and config and state checks, as
 * the host kernel gives them.
 */
import { checkState, validateConfig } from "../hosts/plugin-schema.js";
import { Kernel as CoreKernel, type KernelOptions } from "../kernel/index.js";

/** The bare kernel, handed `validateConfig` and `checkState`; any option given explicitly wins. */
export class Kernel extends CoreKernel {
  constructor(options: KernelOptions = {}) {
    super({ validateConfig, checkState, ...options });
  }
}
