/**
 * What the session reports about itself: `get_state` (model, flags, the open file, counts) and
 * `get_session_stats` (message and tool-call counts, token usage and cost summed over every entry of the
 * file, other branches and compacted history included, as pi 1.6 sums what was billed; and how full the
 * context is for the current model).
 */
import type {
  AssistantMessage,
  Handle,
  Model,
  SessionEntry,
  SessionState,
  SessionStats,
  SessionStore,
  ThinkingLevel,
  ToolResultMessage,
  Usage,
} from "pi-host";
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
  const entries = info === undefined ? [] : store.api.entries();
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  let cost = 0;
  const add = (usage: Usage): void => {
    tokens.input += usage.input;
    tokens.output += usage.output;
    tokens.cacheRead += usage.cacheRead;
    tokens.cacheWrite += usage.cacheWrite;
    cost += usage.cost.total;
  };
  const counts = { user: 0, assistant: 0, toolCalls: 0, toolResults: 0, total: 0 };
  for (const entry of entries) {
    const spent = usageOfEntry(entry);
    if (spent !== undefined) add(spent);
    if (entry.type !== "message") continue;
    const m = entry.message;
    counts.total++;
    if (m.role === "user") counts.user++;
    else if (m.role === "toolResult") counts.toolResults++;
    else if (m.role === "assistant") {
      counts.assistant++;
      counts.toolCalls += (m as AssistantMessage).content.filter((b) => b.type === "toolCall").length;
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

/**
 * What one entry spent, as pi 1.6 counts it: an answer's usage, a tool result's nested model work, a
 * `usage` entry (cache warm-ups and the like), a compaction's or branch summary's summary call.
 */
function usageOfEntry(entry: SessionEntry): Usage | undefined {
  if (entry.type === "usage") return entry.usage;
  if (entry.type === "compaction" || entry.type === "branch_summary") return usageOrUndefined(entry.usage);
  if (entry.type !== "message") return undefined;
  if (entry.message.role === "assistant") return (entry.message as AssistantMessage).usage;
  if (entry.message.role === "toolResult")
    return usageOrUndefined((entry.message as ToolResultMessage & { usage?: unknown }).usage);
  return undefined;
}

/** Usage written by a hand or another tool may be anything; only an object with a cost counts. */
function usageOrUndefined(value: unknown): Usage | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const cost = (value as { cost?: unknown }).cost;
  return cost !== null && typeof cost === "object" ? (value as Usage) : undefined;
}
