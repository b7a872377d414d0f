/**
 * The agent session: the orchestrator every mode (TUI, print, JSON, RPC, SDK) talks to. It owns the
 * conversation — prompting, steering, follow-ups, abort, model and thinking level, compaction, retries,
 * persistence — and publishes everything that happens as events on the kernel bus, so a mode reloaded
 * mid-session (or the session itself) never loses a subscriber.
 */
import { defineContract, defineEvent } from "../kernel/index.js";
import type { AgentEvent, AgentMessage } from "./agent.js";
import type { ImageContent, Model, ThinkingLevel } from "./ai/index.js";
import type { CompactionResult, SessionEntry, SessionInfo, TreeNode } from "./session.js";

/** The bus event every session event is published on; subscribers get a SessionEvent. */
export const SESSION_EVENT = defineEvent<SessionEvent>("agent-session:event");

/** Session-level events, in addition to the loop's (pi's names). */
export type SessionEvent =
  | AgentEvent
  | { type: "queue_update"; steering: string[]; followUp: string[] }
  /**
   * pi 1.6.0's: a prompt's run is over with everything that followed it on its own (retries, overflow
   * compaction, queued steering and follow-ups); `aborted` when it ended by abort. Clients wait for
   * this, not `agent_end`, before the next prompt.
   */
  | { type: "agent_settled"; aborted: boolean }
  /** pi 1.6.0's: an extension appended a custom entry to the session (`pi.appendEntry`). */
  | { type: "entry_appended"; entry: SessionEntry }
  /** pi 1.6.0's: the session's display name changed. */
  | { type: "session_info_changed"; name?: string }
  /** pi 1.6.0's: the thinking level changed while a model was in use (set, cycled, or clamped by a model change). */
  | { type: "thinking_level_changed"; level: ThinkingLevel }
  | { type: "compaction_start"; reason: "manual" | "threshold" | "overflow" }
  | {
      type: "compaction_end";
      reason: "manual" | "threshold" | "overflow";
      result: CompactionResult | null;
      aborted: boolean;
      willRetry: boolean;
      errorMessage?: string;
    }
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  | { type: "session_change"; session: SessionInfo | undefined; reason: "new" | "switch" | "fork" | "open" }
  | { type: "model_change"; model: Model; thinkingLevel: ThinkingLevel }
  | { type: "notice"; level: "info" | "warning" | "error"; message: string }
  /**
   * The session could not be written ("write": the entries wait in memory for the next write that
   * succeeds) or its file vanished and was written again in full ("deleted"). pi has no such event; JSON
   * and RPC modes emit it as a line of its own so a client never learns of lost data from stderr only.
   */
  | { type: "session_save_error"; error: string; path: string; reason: "write" | "deleted" };

/** pi's `get_state` data. */
export interface SessionState {
  model: Model | null;
  thinkingLevel: ThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: "all" | "one-at-a-time";
  followUpMode: "all" | "one-at-a-time";
  sessionFile: string | undefined;
  sessionId: string | undefined;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  messageCount: number;
  pendingMessageCount: number;
}

/** pi's `get_session_stats` data. */
export interface SessionStats {
  sessionFile: string | undefined;
  sessionId: string | undefined;
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  toolResults: number;
  totalMessages: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  cost: number;
  contextUsage?: { tokens: number | null; contextWindow: number; percent: number | null };
}

/** How a prompt sent while the agent works is delivered. */
export type StreamingBehavior = "steer" | "followUp";

/** The orchestrator's operations; names follow pi's RPC commands. */
export interface AgentSession {
  /** Opens the session and picks the model, once; every other operation does it on first use. */
  ready(): Promise<void>;
  /** The working folder the session runs in. */
  cwd(): string;
  /** Sends a prompt and resolves when the run (with retries and compaction) is over. */
  prompt(text: string, options?: { images?: ImageContent[]; streamingBehavior?: StreamingBehavior }): Promise<void>;
  steer(text: string, images?: ImageContent[]): Promise<void>;
  followUp(text: string, images?: ImageContent[]): Promise<void>;
  /**
   * Carries on a run the previous generation parked between two turns while a reload moved it (1.2.0).
   * The kernel calls it for the caller of the parked `prompt`, whose promise settles when the run ends.
   */
  resumeRun(runId: string): Promise<void>;
  /**
   * 1.4: carries on a durable run a crash interrupted (docs/durable.md), if the session has one and no
   * run goes on; resolves when it ends. A parked run is refused with its one-line notice. `prompt` does
   * this first on its own; a front end that starts without a prompt calls it at start.
   */
  resumeInterrupted(): Promise<void>;
  /** Stops the run; 1.3.0: also cancels a branch summary `navigateTree` is writing (it rejects, not moving). */
  abort(): Promise<void>;
  /** Empties the steering and follow-up queues; returns the text of what was queued (pi's `clear_queue`). */
  clearQueue(): Promise<{ steering: string[]; followUp: string[] }>;
  /** Resolves when no run is going on. */
  idle(): Promise<void>;

  newSession(options?: { parentSession?: string }): Promise<SessionInfo | undefined>;
  switchSession(path: string): Promise<SessionInfo | undefined>;
  /** Forks the session at a user message: a new session whose leaf is before it; returns its text. */
  fork(entryId: string): Promise<{ text: string; session: SessionInfo | undefined }>;
  /** Copies the whole current path into a new session and switches to it. */
  clone(): Promise<SessionInfo | undefined>;
  /**
   * pi's `/import`: copies a session JSONL file next to the current session (a `-1`, `-2` suffix when the
   * name is taken), keeping its id and working folder, and switches to the copy. A missing file throws.
   */
  importSession(path: string): Promise<SessionInfo | undefined>;
  /** Adds a message that did not come from a run (a user's shell command, an extension's message), after any run. */
  recordMessage(message: AgentMessage): Promise<void>;
  setSessionName(name: string): Promise<void>;
  /**
   * Moves to another entry of the tree, optionally summarizing the branch being left. An `abort()` while
   * the summary is written rejects with `BRANCH_SUMMARY_CANCELLED` and leaves the point where it was.
   */
  navigateTree(entryId: string, options?: { summarize?: boolean; instructions?: string }): Promise<void>;

  setModel(provider: string, modelId: string): Promise<Model>;
  /** The models Ctrl+P cycles through ("provider/id"); empty: every available model. */
  scopedModels(): string[];
  /** `/scoped-models` for this session only: scope patterns (empty or null: every model). Saving is the settings' `enabledModels`. */
  setScopedModels(patterns: readonly string[] | null): Promise<void>;
  /** `isScoped`: the model came from a `--models` / `enabledModels` scope (pi's RPC answer says so). */
  cycleModel(
    direction?: "forward" | "backward",
  ): Promise<{ model: Model; thinkingLevel: ThinkingLevel; isScoped?: boolean } | undefined>;
  availableModels(): Promise<Model[]>;
  setThinkingLevel(level: ThinkingLevel): Promise<void>;
  cycleThinkingLevel(): Promise<ThinkingLevel | undefined>;
  setSteeringMode(mode: "all" | "one-at-a-time"): Promise<void>;
  setFollowUpMode(mode: "all" | "one-at-a-time"): Promise<void>;

  compact(instructions?: string): Promise<CompactionResult | undefined>;
  setAutoCompaction(enabled: boolean): Promise<void>;
  setAutoRetry(enabled: boolean): Promise<void>;
  abortRetry(): Promise<void>;

  state(): SessionState;
  messages(): AgentMessage[];
  stats(): SessionStats;
  lastAssistantText(): string | undefined;
  entries(): SessionEntry[];
  tree(): TreeNode[];
  /** User messages that can be forked from: entry id and text. */
  forkPoints(): Array<{ entryId: string; text: string }>;
}

/** The message `navigateTree` rejects with when `abort()` cancelled its branch summary (pi's words). */
export const BRANCH_SUMMARY_CANCELLED = "Branch summarization cancelled";

/**
 * The session swaps between turns: a reload waits for the current turn, the run parks at the next safe
 * point and the next generation carries it on (`resumeRun`, 1.2.0). Other operations (compaction, a
 * retry's wait) still hold a reload until they end, bounded by the deadline. 1.4: `resumeInterrupted`.
 */
export const AgentSessionContract = defineContract<AgentSession>({
  id: "agent/session",
  version: "1.4.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 5_000,
  shape: { prompt: "function", steer: "function", abort: "function", state: "function" },
  methods: {
    ready: "async",
    cwd: "sync",
    prompt: "async",
    resumeRun: "async",
    resumeInterrupted: "async",
    steer: "async",
    followUp: "async",
    abort: "async",
    clearQueue: "async",
    idle: "async",
    newSession: "async",
    switchSession: "async",
    fork: "async",
    clone: "async",
    importSession: "async",
    recordMessage: "async",
    setSessionName: "async",
    navigateTree: "async",
    setModel: "async",
    scopedModels: "sync",
    setScopedModels: "async",
    cycleModel: "async",
    availableModels: "async",
    setThinkingLevel: "async",
    cycleThinkingLevel: "async",
    setSteeringMode: "async",
    setFollowUpMode: "async",
    compact: "async",
    setAutoCompaction: "async",
    setAutoRetry: "async",
    abortRetry: "async",
    state: "sync",
    messages: "sync",
    stats: "sync",
    lastAssistantText: "sync",
    entries: "sync",
    tree: "sync",
    forkPoints: "sync",
  },
});
