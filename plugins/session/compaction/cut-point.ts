/**
 * Where a compaction cuts: the first entry it keeps. Walking back from the newest entry, it keeps
 * about `keepRecentTokens` of context and cuts before a user, assistant, bash, custom or summary
 * message — never before a tool result, which must stay with the call that produced it.
 */
import type { SessionEntry } from "pi-host";
import { estimateEntryTokens, isContextEntry, isTurnStart, isValidCutPoint } from "./messages.js";

/** A cut inside `path`. */
export interface CutPoint {
  /** Index of the first kept entry. */
  firstKeptIndex: number;
  /**
   * Set when the cut falls inside a turn (a turn larger than the budget): the index of the entry that
   * started that turn. Entries from there to the cut are the turn's prefix, summarized on their own.
   */
  splitTurnStart: number | undefined;
}

/**
 * Finds the cut in `path[start, end)` that keeps about `keepRecentTokens`. Undefined when everything
 * fits in the budget, or when no cut would leave anything to summarize.
 *
 * The entry where the running total reaches the budget decides: the cut is the first valid cut point
 * at or after it (keeping a little less than the budget rather than orphaning a tool result). When
 * nothing after it is a valid cut point (the newest entries are one huge tool result), the cut moves
 * back to the nearest valid point before it, so the older context can still be compacted.
 */
export function findCutPoint(
  path: readonly SessionEntry[],
  start: number,
  end: number,
  keepRecentTokens: number,
): CutPoint | undefined {
  const cutPoints: number[] = [];
  for (let i = start; i < end; i++) if (isValidCutPoint(path[i]!)) cutPoints.push(i);
  if (cutPoints.length === 0) return undefined;

  const budgetReachedAt = indexWhereBudgetIsReached(path, start, end, keepRecentTokens);
  if (budgetReachedAt === undefined) return undefined;

  let cut = cutPoints.find((index) => index >= budgetReachedAt);
  if (cut === undefined) cut = cutPoints[cutPoints.length - 1]!;

  let splitTurnStart: number | undefined;
  if (!isTurnStart(path[cut]!)) {
    for (let i = cut - 1; i >= start; i--) {
      if (isTurnStart(path[i]!)) {
        splitTurnStart = i;
        break;
      }
    }
  }

  // Settings changes, labels and extension state just before the cut travel with the kept part.
  let firstKeptIndex = cut;
  while (firstKeptIndex > start && !isContextEntry(path[firstKeptIndex - 1]!)) firstKeptIndex--;
  if (firstKeptIndex <= start) return undefined;
  return { firstKeptIndex, splitTurnStart };
}

/**
 * Walks back from the newest entry adding up context estimates; returns the index where the total
 * first reaches `keepRecentTokens`, or undefined if the whole span stays under it. Compaction entries
 * inside the span are skipped: their summary is replaced by the new one, not kept.
 */
function indexWhereBudgetIsReached(
  path: readonly SessionEntry[],
  start: number,
  end: number,
  keepRecentTokens: number,
): number | undefined {
  let total = 0;
  for (let i = end - 1; i >= start; i--) {
    const entry = path[i]!;
    if (entry.type === "compaction" || !isContextEntry(entry)) continue;
    total += estimateEntryTokens(entry);
    if (total >= keepRecentTokens) return i;
  }
  return undefined;
}
