/**
 * How compaction reads session entries: which ones reach the context, where a cut or a turn may start,
 * and what one entry costs in tokens. The text an entry becomes comes from pi-host's one model-context
 * module (`messageOfEntry`, `convertToLlm`), the same the model request uses.
 */
import { convertToLlm, estimateMessageTokens, messageOfEntry, type SessionEntry } from "pi-host";

/** Roles that begin a turn: the user speaking, or something that stands in for the user (pi's rule). */
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** Roles a compaction may cut before: every context message except a tool result. */
const CUTTABLE_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** True for entries that put something into the context (a compaction entry's summary counts). */
export function isContextEntry(entry: SessionEntry): boolean {
  return (
    entry.type === "message" ||
    entry.type === "custom_message" ||
    entry.type === "branch_summary" ||
    entry.type === "compaction"
  );
}

/**
 * True where a compaction may start the kept part. Never a tool result: it must stay behind the
 * assistant message that called the tool, or the provider rejects the orphaned result.
 */
export function isValidCutPoint(entry: SessionEntry): boolean {
  if (entry.type === "custom_message" || entry.type === "branch_summary") return true;
  return entry.type === "message" && CUTTABLE_ROLES.has(entry.message.role);
}

/** True where a turn begins: a user message or something the user side injected. */
export function isTurnStart(entry: SessionEntry): boolean {
  if (entry.type === "custom_message" || entry.type === "branch_summary") return true;
  return entry.type === "message" && TURN_START_ROLES.has(entry.message.role);
}

/** The chars/4 estimate of what one entry adds to the context (0 for entries the model never sees). */
export function estimateEntryTokens(entry: SessionEntry): number {
  const message = messageOfEntry(entry);
  if (!message) return 0;
  let tokens = 0;
  for (const llmMessage of convertToLlm([message])) tokens += estimateMessageTokens(llmMessage);
  return tokens;
}
