/**
 * `showCacheMissNotices` in the running view: after each answer, the cache miss it paid for (from the
 * open session's path), and after a compaction what its summary was billed, as pi adds them.
 */
import type { AssistantMessage, Handle, SessionEvent, SessionStore } from "pi-host";
import { cacheNoticesShown, liveCacheMissNotice, pathCacheMissNotices, summaryCostText } from "./cache-notices.js";
import type { ViewState } from "./state.js";
import { notice } from "./transcript.js";
import { syncCall } from "./view-deps.js";

/** Adds pi's billing notice for `event`, when it has one. */
export function billingNotice(s: ViewState, event: SessionEvent, store: Handle<SessionStore>): void {
  if (!cacheNoticesShown() || !store.available) return;
  if (event.type === "message_end" && event.message.role === "assistant") {
    const path = syncCall(() => store.api.path(), []);
    const text = liveCacheMissNotice(path, event.message as AssistantMessage);
    if (text !== undefined) notice(s, text, "warning");
  } else if (event.type === "compaction_end" && event.result !== null) {
    const entries = syncCall(() => store.api.entries(), []);
    const last = [...entries].reverse().find((entry) => entry.type === "compaction");
    if (last?.type === "compaction" && last.usage !== undefined)
      notice(s, summaryCostText("compaction", last.usage), "warning");
  }
}

/** The cache miss notice after each answer of the open session's path, for a rebuilt transcript (a resume). */
export function rebuildNotices(store: Handle<SessionStore>): (message: AssistantMessage) => string | undefined {
  const notices =
    cacheNoticesShown() && store.available ? pathCacheMissNotices(syncCall(() => store.api.path(), [])) : new Map();
  return (message) => notices.get(message.timestamp);
}
