/**
 * pi 1.6.0's `showCacheMissNotices` (off by default): a transcript notice when an answer paid for a
 * significant prompt-cache miss (the prompt the previous request had cached, billed again: at least 20k
 * tokens or $0.10), naming a model switch or an idle gap past the 5-minute cache lifetime as pi does; a
 * line for cache warming usage (`usage` entries) and for what a compaction or branch summary was billed.
 * Misses below 1,024 tokens are cache breakpoint noise, and a provider that never reported cache activity
 * has no misses.
 */
import type { AssistantMessage, SessionEntry, Usage } from "pi-host";
import { formatTokens } from "./footer.js";

/** Anthropic's default prompt-cache lifetime: an idle gap longer than this is named as the likely cause. */
const CACHE_TTL_MS = 5 * 60 * 1000;
const NOISE_FLOOR_TOKENS = 1024;

let shown = false;

/** Sets the setting's value, read with the other settings at start. */
export function setCacheNotices(value: unknown): void {
  shown = value === true;
}

/** Whether the notices are shown (`showCacheMissNotices: true`). */
export function cacheNoticesShown(): boolean {
  return shown;
}

interface Previous {
  promptTokens: number;
  modelKey: string;
  timestamp: number;
  reportedCache: boolean;
}

/** One counted miss. */
export interface CacheMiss {
  missedTokens: number;
  missedCost: number;
  idleMs: number;
  modelChanged: boolean;
}

const promptOf = (usage: Usage): number => usage.input + usage.cacheRead + usage.cacheWrite;

/** The previous request after `entry` (a compaction or summary starts over; cache warming counts). */
function step(prev: Previous | undefined, entry: SessionEntry): Previous | undefined {
  if (entry.type === "compaction" || entry.type === "branch_summary") return undefined;
  if (entry.type === "usage" && entry.kind === "cache_warm") {
    const promptTokens = promptOf(entry.usage);
    if (promptTokens <= 0) return prev;
    const timestamp = Date.parse(entry.timestamp);
    return { promptTokens, modelKey: `${entry.provider}/${entry.model}`, timestamp, reportedCache: true };
  }
  if (entry.type !== "message" || entry.message.role !== "assistant") return prev;
  const message = entry.message as AssistantMessage;
  const promptTokens = message.usage === undefined ? 0 : promptOf(message.usage);
  if (promptTokens <= 0) return prev;
  return {
    promptTokens,
    modelKey: `${message.provider}/${message.model}`,
    timestamp: message.timestamp,
    reportedCache: (prev?.reportedCache ?? false) || message.usage.cacheRead + message.usage.cacheWrite > 0,
  };
}

/** The miss `message` paid for after the path `before` (entries without it), or undefined when none counts. */
export function detectCacheMiss(before: readonly SessionEntry[], message: AssistantMessage): CacheMiss | undefined {
  let prev: Previous | undefined;
  for (const entry of before) prev = step(prev, entry);
  return missAfter(prev, message);
}

/** pi's rule for one answer after the previous request. */
function missAfter(prev: Previous | undefined, message: AssistantMessage): CacheMiss | undefined {
  const usage = message.usage;
  if (usage === undefined || prev === undefined) return undefined;
  const promptTokens = promptOf(usage);
  if (promptTokens <= 0 || (usage.cacheRead + usage.cacheWrite === 0 && !prev.reportedCache)) return undefined;
  const missedTokens = Math.min(prev.promptTokens, promptTokens) - usage.cacheRead;
  if (missedTokens <= NOISE_FLOOR_TOKENS) return undefined;
  // The missed tokens were billed at the paid rate (input, cache write) instead of the cache-read rate.
  const paidTokens = usage.input + usage.cacheWrite;
  const paidPerToken = paidTokens > 0 ? (usage.cost.input + usage.cost.cacheWrite) / paidTokens : 0;
  const readPerToken = usage.cacheRead > 0 ? usage.cost.cacheRead / usage.cacheRead : 0;
  return {
    missedTokens,
    missedCost: missedTokens * Math.max(0, paidPerToken - readPerToken),
    idleMs: Math.max(0, message.timestamp - prev.timestamp),
    modelChanged: `${message.provider}/${message.model}` !== prev.modelKey,
  };
}

/**
 * The notices of a whole path, by the answer's timestamp, for a transcript rebuilt from the session (a
 * resume): pi derives them again, as misses are not stored. One pass over the path.
 */
export function pathCacheMissNotices(path: readonly SessionEntry[]): Map<number, string> {
  const notices = new Map<number, string>();
  if (!shown) return notices;
  let prev: Previous | undefined;
  for (const entry of path) {
    if (entry.type === "message" && entry.message.role === "assistant") {
      const message = entry.message as AssistantMessage;
      const miss =
        message.stopReason === "aborted" || message.stopReason === "error" ? undefined : missAfter(prev, message);
      const text = miss === undefined ? undefined : cacheMissText(miss);
      if (text !== undefined) notices.set(message.timestamp, text);
    }
    prev = step(prev, entry);
  }
  return notices;
}

/** pi's notice for a miss, or undefined below its threshold (20k tokens and $0.10). */
export function cacheMissText(miss: CacheMiss): string | undefined {
  if (miss.missedTokens < 20_000 && miss.missedCost < 0.1) return undefined;
  const cost = miss.missedCost >= 0.01 ? ` (~$${miss.missedCost.toFixed(2)})` : "";
  const label = miss.modelChanged
    ? "Cache miss after model switch"
    : miss.idleMs >= CACHE_TTL_MS
      ? `Cache miss after ${Math.round(miss.idleMs / 60_000)}m idle`
      : "Cache miss";
  return `${label}: ${formatTokens(miss.missedTokens)} tokens re-billed${cost}`;
}

/** pi's line for what a compaction or branch summary was billed. */
export function summaryCostText(kind: "compaction" | "branch_summary", usage: Usage): string {
  const tokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  const cost = usage.cost.total >= 0.01 ? ` (~$${usage.cost.total.toFixed(2)})` : "";
  return `${kind === "compaction" ? "Compaction" : "Branch summary"}: ${formatTokens(tokens)} tokens billed${cost}`;
}

/**
 * The notice for an answer that just ended, from the open session's path: the entries before the answer
 * (the store may already hold it when the event arrives).
 */
export function liveCacheMissNotice(path: readonly SessionEntry[], message: AssistantMessage): string | undefined {
  if (!shown || message.stopReason === "aborted" || message.stopReason === "error") return undefined;
  const at = path.findIndex(
    (entry) =>
      entry.type === "message" &&
      entry.message.role === "assistant" &&
      (entry.message as AssistantMessage).timestamp === message.timestamp,
  );
  const miss = detectCacheMiss(at === -1 ? path : path.slice(0, at), message);
  return miss === undefined ? undefined : cacheMissText(miss);
}
