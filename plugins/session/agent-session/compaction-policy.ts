/**
 * When and how the session compacts. Automatically: after a run whose context passed the compactor's
 * threshold, and once on a context overflow (then the run goes again). Manually: `/compact`. The
 * compactor plugin writes the summary; this file decides when, appends the entry and reports pi's
 * `compaction_start` / `compaction_end` events.
 */
import {
  type AgentHooks,
  askBeforeSessionChange,
  convertToLlm,
  DEFAULT_COMPACTION,
  estimateContextTokens,
  usageTokens,
  type AgentMessage,
  type AssistantMessage,
  type CompactionResult,
  type CompactionSettings,
  type Handle,
  type ManyHandle,
  type Model,
  type SessionCompactor,
  type SessionEvent,
  type SessionStore,
  type Settings,
} from "pi-host";

/** Why a compaction runs, as pi's events name it. */
export type CompactionReason = "manual" | "threshold" | "overflow";

/** Settings `compaction` over pi's defaults. */
export function compactionSettings(settings: Settings): CompactionSettings {
  return { ...DEFAULT_COMPACTION, ...((settings.compaction ?? {}) as Partial<CompactionSettings>) };
}

/** Auto-compaction is on when both the session toggle and the `compaction.enabled` setting allow it. */
export function autoCompactionOn(toggle: boolean, settings: Settings): boolean {
  return toggle && compactionSettings(settings).enabled;
}

/**
 * The context's size in tokens: the last answered request's usage plus an estimate of what came after.
 * Only that tail is converted, so a 20,000-message session costs what its last turn costs.
 */
export function contextTokens(messages: readonly AgentMessage[]): number {
  let anchor = messages.length;
  while (anchor > 0) {
    const m = messages[anchor - 1]!;
    if (
      m.role === "assistant" &&
      (m as AssistantMessage).stopReason !== "error" &&
      (m as AssistantMessage).stopReason !== "aborted" &&
      usageTokens((m as AssistantMessage).usage) > 0
    )
      break;
    anchor--;
  }
  return estimateContextTokens(convertToLlm(messages.slice(Math.max(0, anchor - 1)))).tokens;
}

/** Whether the context passed the compactor's threshold (never without a compactor or a model). */
export function contextIsFull(
  compactor: Handle<SessionCompactor>,
  model: Model | undefined,
  messages: readonly AgentMessage[],
  settings: Settings,
): boolean {
  if (!compactor.available || model === undefined) return false;
  return compactor.api.shouldCompact(contextTokens(messages), model.contextWindow, compactionSettings(settings));
}

/** What one compaction works with. */
export interface CompactionJob {
  compactor: Handle<SessionCompactor>;
  store: Handle<SessionStore>;
  emit: (event: SessionEvent) => void;
  settings: Settings;
  /** The model that writes the summary: the session's current one. */
  model: Model | undefined;
  reason: CompactionReason;
  instructions?: string;
  /** An overflow compaction: the run goes again if it succeeds. */
  willRetry?: boolean;
  signal?: AbortSignal;
  /**
   * The hooks asked before an automatic compaction (pi's `session_before_compact`): one may cancel it
   * or write the compaction itself. A manual one was asked by whoever started it.
   */
  hooks?: ManyHandle<AgentHooks>;
}

/**
 * Summarizes the older part of the session and appends the compaction entry, reporting as events. A
 * failed automatic compaction is reported and swallowed (the run's answer stands); a failed manual one
 * is reported and thrown, unless it was aborted.
 */
export async function compactSession(job: CompactionJob): Promise<CompactionResult | undefined> {
  const { compactor, store, emit, reason, signal } = job;
  if (!compactor.available) throw new Error("no compaction plugin is enabled; add one to plugins.json");
  emit({ type: "compaction_start", reason });
  try {
    if (reason !== "manual" && job.hooks !== undefined) {
      const change = { kind: "compact", reason, willRetry: job.willRetry === true } as const;
      const decision = await askBeforeSessionChange(job.hooks, change, signal);
      if (decision.outcome === "cancelled") {
        // pi: a cancelled automatic compaction ends as aborted, with no error and no retry.
        emit({ type: "compaction_end", reason, result: null, aborted: true, willRetry: false });
        return undefined;
      }
      if (decision.outcome === "handled") {
        const result = lastCompaction(store);
        emit({ type: "compaction_end", reason, result, aborted: false, willRetry: job.willRetry === true });
        return result ?? undefined;
      }
    }
    if (job.model === undefined) throw new Error("no model selected to write the summary");
    const result = await compactor.api.compact(store.api.path(), compactionSettings(job.settings), job.model, {
      instructions: job.instructions,
      signal,
    });
    if (result !== undefined)
      store.api.appendCompaction(result.summary, result.firstKeptEntryId, result.tokensBefore, result.details);
    emit({
      type: "compaction_end",
      reason,
      result: result ?? null,
      aborted: false,
      willRetry: job.willRetry === true && result !== undefined,
    });
    return result;
  } catch (error) {
    const aborted = signal?.aborted === true;
    emit({
      type: "compaction_end",
      reason,
      result: null,
      aborted,
      willRetry: false,
      errorMessage: aborted ? undefined : (error as Error).message,
    });
    if (reason === "manual" && !aborted) throw error;
    return undefined;
  }
}

/** The compaction a hook just saved, as a result (null when the branch ends in none). */
function lastCompaction(store: Handle<SessionStore>): CompactionResult | null {
  const entry = store.api.path().at(-1);
  if (entry?.type !== "compaction") return null;
  const details = (entry.details ?? { readFiles: [], modifiedFiles: [] }) as CompactionResult["details"];
  return {
    summary: entry.summary,
    firstKeptEntryId: entry.firstKeptEntryId,
    tokensBefore: entry.tokensBefore,
    details,
  };
}

/** What the session's compactions read when they run. */
export interface SessionCompactionDeps {
  compactor: Handle<SessionCompactor>;
  store: Handle<SessionStore>;
  emit: (event: SessionEvent) => void;
  settings: () => Settings;
  model: () => Model | undefined;
  /** The session's auto-compaction toggle. */
  autoCompaction: () => boolean;
  /** The hooks an automatic compaction asks first. */
  hooks?: ManyHandle<AgentHooks>;
}

/** The session's compactions: the policy's questions and one compaction at a time, flagged while it runs. */
export class SessionCompaction {
  /** Whether a compaction is going on (`isCompacting` in the session state). */
  running = false;

  constructor(private readonly deps: SessionCompactionDeps) {}

  /** Whether automatic compaction is on. */
  autoOn(): boolean {
    return autoCompactionOn(this.deps.autoCompaction(), this.deps.settings());
  }

  /** Whether `messages` passed the threshold for the current model. */
  isFull(messages: readonly AgentMessage[]): boolean {
    return contextIsFull(this.deps.compactor, this.deps.model(), messages, this.deps.settings());
  }

  /** Compacts now (see compactSession). */
  async run(
    reason: CompactionReason,
    options: { instructions?: string; willRetry?: boolean; signal?: AbortSignal } = {},
  ): Promise<CompactionResult | undefined> {
    const { compactor, store, emit } = this.deps;
    this.running = true;
    try {
      return await compactSession({
        compactor,
        store,
        emit,
        settings: this.deps.settings(),
        model: this.deps.model(),
        reason,
        hooks: this.deps.hooks,
        ...options,
      });
    } finally {
      this.running = false;
    }
  }
}
