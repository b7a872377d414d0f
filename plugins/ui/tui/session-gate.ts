/**
 * The TUI's `/new`, `/resume`, `/fork`, `/tree` and `/compact` ask the hooks first (pi extensions'
 * `session_before_*`), as pi's interactive mode does: a hook may cancel the operation, or do it itself.
 */
import { askBeforeSessionChange, type SessionChange } from "pi-host";
import { notice } from "./transcript.js";
import type { ViewActions } from "./view-deps.js";

/**
 * Whether the operation should run (with the instructions a hook chose); false when a hook cancelled
 * (a compaction says so, as pi does) or already did it.
 */
export async function sessionChangeAllowed(
  view: ViewActions,
  change: SessionChange,
): Promise<{ go: false } | { go: true; customInstructions?: string }> {
  const decision = await askBeforeSessionChange(view.deps.hooks, change);
  if (decision.outcome === "go") return { go: true, customInstructions: decision.customInstructions };
  if (decision.outcome === "cancelled" && change.kind === "compact")
    view.later((state) => notice(state, "Compaction cancelled", "error"));
  return { go: false };
}
