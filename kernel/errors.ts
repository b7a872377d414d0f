/**
 * Lifecycle failures are data: each one names the plugin, the phase and the generation, so a host can
 * show it, a test can assert on it, and nothing ever surfaces as an unhandled rejection.
 */

/** The phases of the reload cycle, plus the operations that share its queue. */
export type Phase = "load" | "prepare" | "gate" | "migrate" | "commit" | "retire" | "boot" | "shutdown" | "runtime";

/** One lifecycle failure, as emitted on the `kernel:error` event and returned from the operation. */
export interface LifecycleError {
  pluginId: string;
  phase: Phase;
  generation: number;
  cause: Error;
}

/** Builds a LifecycleError from anything thrown, keeping the original as `cause`. */
export function lifecycleError(pluginId: string, phase: Phase, generation: number, cause: unknown): LifecycleError {
  return { pluginId, phase, generation, cause: cause instanceof Error ? cause : new Error(String(cause)) };
}

/** Thrown when code of a retired generation keeps using its context: it is running on borrowed time. */
export class StaleGenerationError extends Error {
  constructor(
    readonly pluginId: string,
    readonly generation: number,
    readonly member: string,
  ) {
    super(`plugin "${pluginId}" generation ${generation} is retired; "${member}" is no longer available`);
    this.name = "StaleGenerationError";
  }
}

/** Thrown when `setup` does I/O or calls a service: setup may only declare. */
export class DeclareOnlyError extends Error {
  constructor(
    readonly pluginId: string,
    what: string,
  ) {
    super(`plugin "${pluginId}" setup is declare-only: ${what}; move it into a provider method or ctx.onStart()`);
    this.name = "DeclareOnlyError";
  }
}

/** A contract version or cardinality conflict found at prepare. */
export class ContractError extends Error {
  override name = "ContractError";
}

/**
 * Thrown when a sync method is called on a handle that a reload's boundary gate holds: the call cannot
 * wait without turning its answer into a Promise, so the caller gets a typed error to catch instead.
 */
export class HandleHeldError extends Error {
  constructor(
    readonly contractId: string,
    readonly method: string,
  ) {
    super(`"${contractId}" is held by a reload; sync method "${method}" cannot wait`);
    this.name = "HandleHeldError";
  }
}
