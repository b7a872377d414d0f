/**
 * The compaction plugin: provides `session/compactor` — when to compact (pi's threshold), how to cut
 * (keep ~keepRecentTokens, never orphan a tool result), and the structured summaries of compacted
 * history and of abandoned branches, written by the caller's model through the LLM router. Stateless:
 * every call works only on the entries it is given.
 */
import { DEFAULT_COMPACTION, definePlugin, LlmContract, SessionCompactorContract } from "pi-host";
import type { Handle, Llm, SessionCompactor } from "pi-host";
import { summarizeBranch } from "./branch-summary.js";
import { compact } from "./compact.js";
import { summarizerFor } from "./summary-call.js";
import { shouldCompact } from "./trigger.js";

/** The compactor over an LLM router handle: the pure functions, with summaries asked of the named model. */
export function createCompactor(llm: Handle<Llm>): SessionCompactor {
  return {
    shouldCompact,
    compact: (path, settings, model, options = {}) =>
      compact(path, settings, summarizerFor(llm, model, options.signal), options),
    summarizeBranch: (entries, model, options = {}) =>
      summarizeBranch(entries, summarizerFor(llm, model, options.signal), {
        ...options,
        tokenBudget: branchBudget(model.contextWindow),
      }),
  };
}

/** pi reads a branch up to the model's window minus the reserve; an unknown window keeps the fallback. */
function branchBudget(contextWindow: number): number | undefined {
  const reserve = DEFAULT_COMPACTION.reserveTokens;
  return contextWindow > reserve ? contextWindow - reserve : undefined;
}

export default definePlugin({
  id: "compaction",
  version: "2.0.0",
  description: "Compacts long sessions into structured summaries and summarizes abandoned branches",
  provides: [SessionCompactorContract],
  requires: [LlmContract],
  setup(ctx) {
    ctx.provide(SessionCompactorContract, createCompactor(ctx.use(LlmContract)));
  },
});
