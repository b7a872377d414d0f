/**
 * Branch summaries: when the user moves to another point of the session tree, the work on the branch
 * being left is summarized so the new position still knows what was tried there.
 */
import { convertToLlm, messageOfEntry, type AgentMessage } from "pi-host";
import type { BranchSummaryResult, SessionEntry } from "pi-host";
import { createFileOps, fileLists, formatFileLists, recordSummaryDetails, recordToolCalls } from "./file-ops.js";
import { estimateEntryTokens } from "./messages.js";
import {
  BRANCH_SUMMARY_PREAMBLE,
  BRANCH_SUMMARY_PROMPT,
  buildSummaryPrompt,
  SUMMARY_SYSTEM_PROMPT,
} from "./prompts.js";
import { serializeConversation } from "./serialize.js";
import { requestSummary, type Summarize } from "./summary-call.js";

/**
 * How much of a long branch the summarizer reads, newest first, when the caller names no budget: pi's
 * fallback window (128,000 − 16,384 tokens). The plugin passes the model's window minus the reserve.
 */
export const BRANCH_TOKEN_BUDGET = 128_000 - 16_384;

/** Reply budget of a branch summary (pi's). */
export const BRANCH_SUMMARY_MAX_TOKENS = 2_048;

/** Options of one branch summary: extra focus and the caller's abort signal. */
export interface BranchSummaryOptions {
  instructions?: string;
  signal?: AbortSignal;
  /** Tokens of the branch the summarizer may read (newest first); default `BRANCH_TOKEN_BUDGET`. */
  tokenBudget?: number;
}

/**
 * Summarizes `entries` (from after the common ancestor to the old leaf, oldest first). Undefined when
 * the branch holds no messages. File lists cover every entry of the branch, earlier summaries included.
 */
export async function summarizeBranch(
  entries: readonly SessionEntry[],
  summarize: Summarize,
  options: BranchSummaryOptions = {},
): Promise<BranchSummaryResult | undefined> {
  if (!Array.isArray(entries)) throw new Error("compaction: branch entries must be an array of session entries");
  if (typeof summarize !== "function") throw new Error("compaction: summarize must be a function");
  options.signal?.throwIfAborted();

  const ops = createFileOps();
  for (const entry of entries) {
    recordSummaryDetails(entry, ops);
    const message = messageOfEntry(entry);
    if (message) recordToolCalls(message, ops);
  }
  const messages = newestWithinBudget(entries, options.tokenBudget ?? BRANCH_TOKEN_BUDGET);
  if (messages.length === 0) return undefined;

  const text = await requestSummary(
    summarize,
    {
      systemPrompt: SUMMARY_SYSTEM_PROMPT,
      prompt: buildSummaryPrompt({
        conversation: serializeConversation(convertToLlm(messages)),
        instructions: BRANCH_SUMMARY_PROMPT,
        focus: options.instructions,
      }),
      maxTokens: BRANCH_SUMMARY_MAX_TOKENS,
    },
    options.signal,
  );
  const lists = fileLists(ops);
  return { summary: BRANCH_SUMMARY_PREAMBLE + text + formatFileLists(lists), details: lists };
}

/**
 * The branch's messages, newest first until `budget` is spent, returned oldest first. Tool results are
 * left out (the calls say what was done; the results are the bulk). An earlier summary that would
 * overflow still gets in while less than 90% of the budget is used: it stands for much older work.
 */
function newestWithinBudget(entries: readonly SessionEntry[], budget: number): AgentMessage[] {
  const picked: AgentMessage[] = [];
  let used = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    const message = messageOfEntry(entry);
    if (!message || message.role === "toolResult") continue;
    const tokens = estimateEntryTokens(entry);
    if (used + tokens > budget) {
      const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
      if (isSummary && used < budget * 0.9) picked.push(message);
      break;
    }
    picked.push(message);
    used += tokens;
  }
  return picked.reverse();
}
