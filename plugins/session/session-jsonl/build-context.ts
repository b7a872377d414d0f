/**
 * What the model sees, built from the root → leaf path the way pi builds it: the latest compaction on
 * the path contributes its summary first, then the messages it kept (from `firstKeptEntryId` up to the
 * compaction), then everything after it. Branch summaries and extension messages become messages of
 * their own roles; the model and thinking level are the last ones set on the path.
 */
import type { AgentMessage } from "pi-host";
import type { CompactionEntry, SessionContext, SessionEntry } from "pi-host";

/** Builds the context from a path, root first. O(path length). */
export function buildContextFromPath(path: readonly SessionEntry[]): SessionContext {
  const context: SessionContext = { messages: [], entryIds: [] };
  let compactionIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const entry = path[i];
    if (entry.type === "thinking_level_change") context.thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "model_change") context.model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "message" && entry.message.role === "assistant") {
      const message = entry.message as { provider: string; model: string };
      context.model = { provider: message.provider, modelId: message.model };
    } else if (entry.type === "compaction") compactionIndex = i;
  }

  const push = (entry: SessionEntry): void => {
    const message = messageOf(entry);
    if (message === undefined) return;
    context.messages.push(message);
    context.entryIds.push(entry.id);
  };

  if (compactionIndex < 0) {
    for (const entry of path) push(entry);
    return context;
  }
  const compaction = path[compactionIndex] as CompactionEntry;
  context.messages.push({ role: "compactionSummary", summary: compaction.summary, tokensBefore: compaction.tokensBefore, timestamp: epochMs(compaction.timestamp) });
  context.entryIds.push(compaction.id);
  let kept = false;
  for (let i = 0; i < compactionIndex; i++) {
    if (path[i].id === compaction.firstKeptEntryId) kept = true;
    if (kept) push(path[i]);
  }
  for (let i = compactionIndex + 1; i < path.length; i++) push(path[i]);
  return context;
}

/** The message an entry contributes to the context, if any. */
function messageOf(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === "message") return entry.message;
  if (entry.type === "custom_message") {
    const message: AgentMessage = { role: "custom", customType: entry.customType, content: entry.content, display: entry.display, timestamp: epochMs(entry.timestamp) };
    if (entry.details !== undefined) message.details = entry.details;
    return message;
  }
  if (entry.type === "branch_summary" && entry.summary) {
    return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: epochMs(entry.timestamp) };
  }
  return undefined;
}

/** Entry times are ISO strings; message times are Unix milliseconds. */
function epochMs(isoTime: string): number {
  return new Date(isoTime).getTime();
}
