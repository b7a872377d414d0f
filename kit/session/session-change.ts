/**
 * Asks every hook before a session operation a user or client started (`/new`, `/resume`, `/fork`,
 * `/tree`, `/compact`; RPC's `new_session`, `switch_session`, `fork`, `compact`), so pi extensions'
 * `session_before_*` handlers run for those as in pi. Shared by the modes that start such operations.
 */
import type { ManyHandle } from "../../kernel/index.js";
import type { AgentHooks, SessionChange } from "../../contracts/hooks.js";

/** What the operation should do: go ahead (with instructions a hook chose), stop, or nothing (a hook did it). */
export type SessionChangeDecision =
  | { outcome: "go"; customInstructions?: string }
  | { outcome: "cancelled" }
  | { outcome: "handled" };

/** Asks the hooks in order; the first that cancels or handles decides. A hook that throws is passed over. */
export async function askBeforeSessionChange(
  hooks: ManyHandle<AgentHooks> | undefined,
  change: SessionChange,
  signal?: AbortSignal,
): Promise<SessionChangeDecision> {
  let customInstructions: string | undefined;
  for (const handle of hooks?.list() ?? []) {
    const hook = handle.peek();
    if (hook?.beforeSessionChange === undefined) continue;
    const verdict = await handle.api.beforeSessionChange(change, signal).catch(() => undefined);
    if (verdict?.cancel === true) return { outcome: "cancelled" };
    if (verdict?.handled === true) return { outcome: "handled" };
    if (typeof verdict?.customInstructions === "string") customInstructions = verdict.customInstructions;
  }
  return customInstructions === undefined ? { outcome: "go" } : { outcome: "go", customInstructions };
}
