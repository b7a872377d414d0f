/**
 * One call to the summarizer, with the checks every call needs: stop before and after it once the
 * caller aborted, and refuse an empty answer (an empty summary would silently erase the history).
 */
import type { Summarize } from "pi-host";

/** Calls `summarize` and returns its trimmed text; throws the abort reason or a one-line error. */
export async function requestSummary(
  summarize: Summarize,
  request: Parameters<Summarize>[0],
  signal: AbortSignal | undefined,
): Promise<string> {
  signal?.throwIfAborted();
  const text = await summarize(request);
  signal?.throwIfAborted();
  if (typeof text !== "string" || text.trim() === "")
    throw new Error("compaction: the summarizer returned an empty summary");
  return text.trim();
}
