/**
 * The transcript rebuilt from the session (at start, resume, fork, tree navigation, compaction): its
 * context messages, and in between them the entries extensions appended (pi's `appendEntry`), which are
 * not messages and would otherwise vanish from the view. As pi renders a compaction-aware branch, an
 * entry shows where it sits on the branch: after the last message before it, none if a compaction
 * summarised it away.
 */
import type { AgentMessage, AssistantMessage, SessionContext, SessionEntry } from "pi-host";
import { type PlacedEntry, rebuildFromMessages } from "./transcript.js";
import { syncCall, type ViewDeps } from "./view-deps.js";
import type { ViewState } from "./state.js";

/**
 * Rebuilds `state`'s transcript from the open session (the session's messages alone without a store);
 * `noticeAfter` gives the notice to show after an answer (the cache miss notices).
 */
export function rebuildFromSession(
  state: ViewState,
  deps: Pick<ViewDeps, "session" | "store">,
  noticeAfter?: (message: AssistantMessage) => string | undefined,
): void {
  const store = deps.store;
  const context = syncCall(
    () => (store.available && store.api.current() !== undefined ? store.api.buildContext() : undefined),
    undefined,
  );
  if (context === undefined) {
    rebuildFromMessages(
      state,
      syncCall(() => deps.session.api.messages(), []),
      [],
      noticeAfter,
    );
    return;
  }
  const path = syncCall(() => store.api.path(), [] as SessionEntry[]);
  rebuildFromMessages(state, context.messages, placeEntries(context, path), noticeAfter);
}

/**
 * Where each `custom` entry of the branch goes: after the message latest in the transcript among those
 * before it on the branch. One before every message goes first, unless a compaction summary leads the
 * transcript: then it was summarised away, as pi leaves it out.
 */
export function placeEntries(
  context: Pick<SessionContext, "messages" | "entryIds">,
  path: SessionEntry[],
): PlacedEntry[] {
  const position = new Map(path.map((entry, index) => [entry.id, index]));
  const messageAt = context.entryIds.map((id) => position.get(id) ?? -1);
  const first = Math.min(...messageAt.filter((at) => at >= 0), path.length);
  const compacted = context.messages.some((m: AgentMessage) => m.role === "compactionSummary");
  const placed: PlacedEntry[] = [];
  for (const [at, entry] of path.entries()) {
    if (entry.type !== "custom") continue;
    if (at < first && compacted) continue;
    let after = -1;
    for (const [index, messageAtPath] of messageAt.entries())
      if (messageAtPath >= 0 && messageAtPath < at) after = index;
    placed.push({ after, entry: entry as PlacedEntry["entry"] });
  }
  return placed.sort((a, b) => a.after - b.after);
}
