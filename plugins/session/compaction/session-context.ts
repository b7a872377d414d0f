/**
 * The messages the model currently sees for a root→leaf path, built by pi-host's one model-context
 * module exactly as the session store builds them: the latest compaction's summary, the entries it
 * kept, then everything after it. Compaction needs this to report `tokensBefore` — the size of the
 * context it replaces.
 */
import {
  buildSessionContext,
  convertToLlm,
  estimateContextTokens,
  type AgentMessage,
  type SessionEntry,
} from "pi-host";

/** Index of the last compaction entry on `path`, or -1. */
export function lastCompactionIndex(path: readonly SessionEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.type === "compaction") return i;
  return -1;
}

/** The context messages of `path`, summary first when the path has been compacted (the store's own rule). */
export function contextMessages(path: readonly SessionEntry[]): AgentMessage[] {
  return buildSessionContext(path).messages;
}

/**
 * Estimated tokens of the context `path` gives the model: anchored on the last answered request's
 * usage, plus chars/4 for what came after (contracts/ai/estimate.ts).
 */
export function estimatePathContextTokens(path: readonly SessionEntry[]): number {
  return estimateContextTokens(convertToLlm(contextMessages(path))).tokens;
}
