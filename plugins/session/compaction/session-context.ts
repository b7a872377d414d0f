/**
 * The messages the model currently sees for a root→leaf path, built the way the session store builds
 * them: the latest compaction's summary, the entries it kept, then everything after it. Compaction
 * needs this to report `tokensBefore` — the size of the context it replaces.
 */
import type { AgentMessage } from "pi-host";
import { estimateContextTokens } from "pi-host";
import type { CompactionEntry, SessionEntry } from "pi-host";
import { messageOfEntry, toLlmMessages } from "./messages.js";

/** Index of the last compaction entry on `path`, or -1. */
export function lastCompactionIndex(path: readonly SessionEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.type === "compaction") return i;
  return -1;
}

/** The context messages of `path`, summary first when the path has been compacted. */
export function contextMessages(path: readonly SessionEntry[]): AgentMessage[] {
  const compactionIndex = lastCompactionIndex(path);
  const messages: AgentMessage[] = [];
  const add = (entry: SessionEntry): void => {
    if (entry.type === "compaction") return;
    const message = messageOfEntry(entry);
    if (message) messages.push(message);
  };
  if (compactionIndex < 0) {
    for (const entry of path) add(entry);
    return messages;
  }
  const compaction = path[compactionIndex] as CompactionEntry;
  messages.push(messageOfEntry(compaction)!);
  const firstKept = path.findIndex((entry, index) => index < compactionIndex && entry.id === compaction.firstKeptEntryId);
  if (firstKept >= 0) for (let i = firstKept; i < compactionIndex; i++) add(path[i]!);
  for (let i = compactionIndex + 1; i < path.length; i++) add(path[i]!);
  return messages;
}

/**
 * Estimated tokens of the context `path` gives the model: anchored on the last answered request's
 * usage, plus chars/4 for what came after (contracts/ai/estimate.ts).
 */
export function estimatePathContextTokens(path: readonly SessionEntry[]): number {
  return estimateContextTokens(toLlmMessages(contextMessages(path))).tokens;
}
