/**
 * The compaction plugin: provides `session/compactor` — when to compact (pi's threshold), how to cut
 * (keep ~keepRecentTokens, never orphan a tool result), and the structured summaries of compacted
 * history and of abandoned branches. Stateless: every call works only on the entries it is given.
 */
import { SessionCompactorContract, type SessionCompactor } from "pi-host";
import { definePlugin } from "pi-host";
import { summarizeBranch } from "./branch-summary.js";
import { compact } from "./compact.js";
import { shouldCompact } from "./trigger.js";

/** The compactor as a plain object: three pure-over-input functions. */
export const compactor: SessionCompactor = { shouldCompact, compact, summarizeBranch };

export default definePlugin({
  id: "compaction",
  version: "1.0.0",
  description: "Compacts long sessions into structured summaries and summarizes abandoned branches",
  provides: [SessionCompactorContract],
  setup(ctx) {
    ctx.provide(SessionCompactorContract, compactor);
  },
});
