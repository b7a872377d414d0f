/**
 * How a host prints a lifecycle failure. The kernel hands failures back as data (plugin, phase,
 * generation, cause); turning one into a line for a person is the host's choice.
 */
import type { LifecycleError } from "../kernel/index.js";

/** One line for humans: `plugin "x" failed at prepare (generation 3): message`. */
export function formatLifecycleError(error: LifecycleError): string {
  return `plugin "${error.pluginId}" failed at ${error.phase} (generation ${error.generation}): ${error.cause.message}`;
}
