/**
 * What the session reports about itself: `get_state` (model, flags, the open file, counts) and
 * `get_session_stats` (message and tool-call counts, token usage and cost summed over the current path,
 * and how full the context is for the current model).
 */
import type { AssistantMessage, Handle, Model, SessionState, SessionStats, SessionStore, ThinkingLevel } from "pi-host";
import { contextTokens } from "./compaction-policy.js";
import type { PromptQueues } from "./queue.js";

/** What the orchestrator knows that the store does not. */
export interface LiveState {
  model: Model | undefined;
  thinkingLevel: ThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  queues: PromptQueues;
  autoCompactionEnabled: boolean;
}

/** The session state as modes and RPC clients read it. */
export function sessionState(store: Handle<SessionStore>, live: LiveState): SessionState {
  const info = store.api.current();
  return {
    model: live.model ?? null,
    thinkingLevel: live.thinkingLevel,
    isStreaming: live.isStreaming,
    isCompacting: live.isCompacting,
    steeringMode: live.queues.steering.mode,
    followUpMode: live.queues.followUps.mode,
    sessionFile: info?.path,
    sessionId: info?.id,
    ...(info?.name !== undefined && { sessionName: info.name }),
    autoCompactionEnabled: live.autoCompactionEnabled,
    messageCount: info === undefined ? 0 : store.api.buildContext().messages.length,
    pendingMessageCount: live.queues.pending,
  };
}

/** The stats of the open session (all zero when none is open); `contextUsage` only with a model. */
export function sessionStats(store: Handle<SessionStore>, model: Model | undefined): SessionStats {
  const info = store.api.current();
  const path = info === undefined ? [] : store.api.path();
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  let cost = 0;
  const counts = { user: 0, assistant: 0, toolCalls: 0, toolResults: 0, total: 0 };
  for (const entry of path) {
    if (entry.type !== "message") continue;
    const m = entry.message;
    counts.total++;
    if (m.role === "user") counts.user++;
    else if (m.role === "toolResult") counts.toolResults++;
    else if (m.role === "assistant") {
      const a = m as AssistantMessage;
      counts.assistant++;
      counts.toolCalls += a.content.filter((b) => b.type === "toolCall").length;
      tokens.input += a.usage.input;
      tokens.output += a.usage.output;
      tokens.cacheRead += a.usage.cacheRead;
      tokens.cacheWrite += a.usage.cacheWrite;
      cost += a.usage.cost.total;
    }
  }
  tokens.total = tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
  const stats: SessionStats = {
    sessionFile: info?.path,
    sessionId: info?.id,
    userMessages: counts.user,
    assistantMessages: counts.assistant,
    toolCalls: counts.toolCalls,
    toolResults: counts.toolResults,
    totalMessages: counts.total,
    tokens,
    cost,
  };
  if (model !== undefined && info !== undefined) {
    const used = contextTokens(store.api.buildContext().messages);
    stats.contextUsage = {
      tokens: used,
      contextWindow: model.contextWindow,
      percent: Math.round((used / model.contextWindow) * 1000) / 10,
    };
  }
  return stats;
}
