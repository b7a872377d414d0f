/**
 * When to compact automatically: once the context leaves less than `reserveTokens` of the window for
 * the next answer (pi's rule). Manual `/compact` does not ask.
 */
import type { CompactionSettings } from "pi-host";

/** True when `contextTokens > contextWindow − reserveTokens` and compaction is enabled. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
  if (!settings.enabled) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}
