/**
 * Compaction: summarize the older part of a session so the recent part fits beside the summary.
 *
 * The summarized span runs from where the last compaction's kept part began (or the session start)
 * to the cut; the new summary updates the previous one rather than starting over. When the cut falls
 * inside a turn, that turn's beginning gets a summary of its own, merged below the history summary.
 */
import { convertToLlm, messageOfEntry, type AgentMessage } from "pi-host";
import type { CompactionEntry, CompactionResult, CompactionSettings, SessionEntry } from "pi-host";
import { findCutPoint } from "./cut-point.js";
import {
  createFileOps,
  fileLists,
  formatFileLists,
  recordSummaryDetails,
  recordToolCalls,
  withoutFileLists,
  type FileOps,
} from "./file-ops.js";
import {
  buildSummaryPrompt,
  mergeSplitTurnSummary,
  NEW_SUMMARY_PROMPT,
  NO_EARLIER_HISTORY,
  SUMMARY_SYSTEM_PROMPT,
  TURN_PREFIX_PROMPT,
  UPDATE_SUMMARY_PROMPT,
} from "./prompts.js";
import { serializeConversation } from "./serialize.js";
import { estimatePathContextTokens, lastCompactionIndex } from "./session-context.js";
import { requestSummary, type Summarize } from "./summary-call.js";

/** Share of `reserveTokens` the history summary may use (pi's), leaving room for the rest of the reply budget. */
const HISTORY_SUMMARY_SHARE = 0.8;
/** The turn-prefix summary is smaller: it only has to explain the kept end of one turn. */
const TURN_PREFIX_SUMMARY_SHARE = 0.5;

/** Options of one compaction: `/compact <instructions>` focus and the caller's abort signal. */
export interface CompactOptions {
  instructions?: string;
  signal?: AbortSignal;
}

/**
 * Compacts `path` (root → leaf entries). Undefined when there is nothing to compact: the path ends in
 * a compaction, everything fits in `keepRecentTokens`, or no valid cut leaves messages to summarize.
 */
export async function compact(
  path: readonly SessionEntry[],
  settings: CompactionSettings,
  summarize: Summarize,
  options: CompactOptions = {},
): Promise<CompactionResult | undefined> {
  checkInput(path, settings, summarize);
  options.signal?.throwIfAborted();
  if (path.length === 0 || path[path.length - 1]!.type === "compaction") return undefined;

  const previousIndex = lastCompactionIndex(path);
  const previous = previousIndex >= 0 ? (path[previousIndex] as CompactionEntry) : undefined;
  const spanStart = previous ? keptPartStart(path, previous, previousIndex) : 0;

  const cut = findCutPoint(path, spanStart, path.length, settings.keepRecentTokens);
  if (!cut) return undefined;
  const historyEnd = cut.splitTurnStart ?? cut.firstKeptIndex;
  const historyEntries = summarizedEntries(path, spanStart, historyEnd);
  const prefixEntries =
    cut.splitTurnStart === undefined ? [] : summarizedEntries(path, cut.splitTurnStart, cut.firstKeptIndex);
  const historyMessages = messagesOf(historyEntries);
  const prefixMessages = messagesOf(prefixEntries);
  if (historyMessages.length === 0 && prefixMessages.length === 0) return undefined;

  const ops = createFileOps();
  if (previous) recordSummaryDetails(previous, ops);
  recordEntries([...historyEntries, ...prefixEntries], ops);
  const lists = fileLists(ops);

  const previousSummary = previous ? withoutFileLists(previous.summary) : undefined;
  const historyRequest = (): Promise<string> =>
    requestSummary(
      summarize,
      {
        systemPrompt: SUMMARY_SYSTEM_PROMPT,
        prompt: buildSummaryPrompt({
          conversation: serializeConversation(convertToLlm(historyMessages)),
          previousSummary,
          instructions: previousSummary === undefined ? NEW_SUMMARY_PROMPT : UPDATE_SUMMARY_PROMPT,
          focus: options.instructions,
        }),
        maxTokens: Math.floor(HISTORY_SUMMARY_SHARE * settings.reserveTokens),
      },
      options.signal,
    );

  let summary: string;
  if (prefixMessages.length === 0) {
    summary = await historyRequest();
  } else {
    // Both summaries are requested at once. With no new history, the previous summary still stands
    // as the history part (no call needed).
    const history =
      historyMessages.length > 0 ? historyRequest() : Promise.resolve(previousSummary ?? NO_EARLIER_HISTORY);
    const prefix = requestSummary(
      summarize,
      {
        systemPrompt: SUMMARY_SYSTEM_PROMPT,
        prompt: buildSummaryPrompt({
          conversation: serializeConversation(convertToLlm(prefixMessages)),
          instructions: TURN_PREFIX_PROMPT,
          focus: options.instructions,
        }),
        maxTokens: Math.floor(TURN_PREFIX_SUMMARY_SHARE * settings.reserveTokens),
      },
      options.signal,
    );
    const [historySummary, prefixSummary] = await Promise.all([history, prefix]);
    summary = mergeSplitTurnSummary(historySummary, prefixSummary);
  }

  return {
    summary: summary + formatFileLists(lists),
    firstKeptEntryId: path[cut.firstKeptIndex]!.id,
    tokensBefore: estimatePathContextTokens(path),
    details: lists,
  };
}

/**
 * Where the previous compaction's kept part begins: its `firstKeptEntryId`, or the entry after the
 * compaction when that id is not on this path.
 */
function keptPartStart(path: readonly SessionEntry[], previous: CompactionEntry, previousIndex: number): number {
  const kept = path.findIndex((entry, index) => index < previousIndex && entry.id === previous.firstKeptEntryId);
  return kept >= 0 ? kept : previousIndex + 1;
}

/** Entries of `path[start, end)` to summarize; earlier compaction entries are left out (their summary is the previous one). */
function summarizedEntries(path: readonly SessionEntry[], start: number, end: number): SessionEntry[] {
  return path.slice(start, end).filter((entry) => entry.type !== "compaction");
}

function messagesOf(entries: readonly SessionEntry[]): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (const entry of entries) {
    const message = messageOfEntry(entry);
    if (message) messages.push(message);
  }
  return messages;
}

function recordEntries(entries: readonly SessionEntry[], ops: FileOps): void {
  for (const entry of entries) {
    recordSummaryDetails(entry, ops);
    const message = messageOfEntry(entry);
    if (message) recordToolCalls(message, ops);
  }
}

function checkInput(path: readonly SessionEntry[], settings: CompactionSettings, summarize: Summarize): void {
  if (!Array.isArray(path)) throw new Error("compaction: path must be an array of session entries");
  if (typeof summarize !== "function") throw new Error("compaction: summarize must be a function");
  for (const key of ["reserveTokens", "keepRecentTokens"] as const) {
    const value = settings?.[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
      throw new Error(`compaction: settings.${key} must be a non-negative number, got ${String(value)}`);
  }
}
