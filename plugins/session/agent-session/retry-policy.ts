/**
 * The session's retry: the one layer that counts retries. A run whose last answer is a transient error
 * (rate limit, overload, server error, dropped connection) runs again after a backoff, at most
 * `retry.maxRetries` times, so one failing prompt makes 1 + maxRetries requests. Providers get a policy
 * of their own that retries nothing unless `retry.provider.maxRetries` asks, so the counts never multiply.
 */
import {
  DEFAULT_PROVIDER_RETRY,
  DEFAULT_RETRY,
  exceedsRetryLimit,
  isTransientStatus,
  retryAfterMsOf,
  retryDelayMs,
  sleep,
  type AssistantMessage,
  type RetryPolicy,
  type SessionEvent,
  type Settings,
  type StreamOptions,
} from "pi-host";

/** A finite number ≥ 0, else undefined. */
function nonNegative(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The session's policy from settings `retry`: enabled, maxRetries, baseDelayMs, maxDelayMs (pi's docs
 * also call the last one maxAgentDelayMs).
 */
export function sessionRetryPolicy(settings: Settings): RetryPolicy {
  const r = (settings.retry ?? {}) as Partial<RetryPolicy> & { maxAgentDelayMs?: number };
  return {
    enabled: r.enabled !== false,
    maxRetries: nonNegative(r.maxRetries) ?? DEFAULT_RETRY.maxRetries,
    baseDelayMs: nonNegative(r.baseDelayMs) ?? DEFAULT_RETRY.baseDelayMs,
    maxDelayMs: nonNegative(r.maxDelayMs ?? r.maxAgentDelayMs) ?? DEFAULT_RETRY.maxDelayMs,
  };
}

/**
 * What a provider may do on its own: no retries unless `retry.provider.maxRetries` asks for them (pi's
 * default is 0), so one failing prompt makes 1 + retry.maxRetries requests, not a product of two counts.
 * Its `maxDelayMs` is the longest server-requested wait accepted (`retry.provider.maxRetryDelayMs`).
 */
export function providerRetryPolicy(settings: Settings, autoRetry: boolean): RetryPolicy {
  const session = sessionRetryPolicy(settings);
  const provider = ((settings.retry as { provider?: Record<string, unknown> } | undefined)?.provider ?? {}) as Record<
    string,
    unknown
  >;
  return {
    enabled: session.enabled && autoRetry,
    maxRetries: nonNegative(provider.maxRetries) ?? DEFAULT_PROVIDER_RETRY.maxRetries,
    baseDelayMs: session.baseDelayMs,
    maxDelayMs: Math.min(nonNegative(provider.maxRetryDelayMs) ?? session.maxDelayMs, session.maxDelayMs),
  };
}

/** Stall timeouts from settings: `httpIdleTimeoutMs` (pi's, default 300 000; 0 or "disabled" turns it off), `retry.provider.timeoutMs`. */
export function streamTimeouts(settings: Settings): Pick<StreamOptions, "firstByteTimeoutMs" | "idleTimeoutMs"> {
  const idle = settings.httpIdleTimeoutMs;
  const idleTimeoutMs = idle === "disabled" ? 0 : nonNegative(idle);
  const provider = (settings.retry as { provider?: { timeoutMs?: unknown } } | undefined)?.provider;
  const firstByteTimeoutMs = nonNegative(provider?.timeoutMs) ?? idleTimeoutMs;
  return {
    ...(idleTimeoutMs !== undefined && { idleTimeoutMs }),
    ...(firstByteTimeoutMs !== undefined && { firstByteTimeoutMs }),
  };
}

/** Whether an errored answer is worth another run: rate limits, overload, server errors, dropped connections. */
export function isRetryable(message: AssistantMessage): boolean {
  const text = message.errorMessage ?? "";
  const status = /\b(4\d\d|5\d\d)\b/.exec(text)?.[1];
  if (status !== undefined) return isTransientStatus(Number(status));
  return /overloaded|rate.?limit|too many requests|temporarily unavailable|connection|socket|terminated|timed? ?out|stalled|ECONNRESET|fetch failed/i.test(
    text,
  );
}

/**
 * The retries of one run: counts attempts, waits between them, and reports pi's `auto_retry_start` /
 * `auto_retry_end` events. `cancel()` (abort, abort_retry) ends a wait at once and the run with it.
 */
export class RunRetries {
  private waiting: AbortController | undefined;

  constructor(
    private readonly policy: RetryPolicy,
    /** The session's auto-retry toggle, read at each decision (it may change during a run). */
    private readonly autoRetry: () => boolean,
    private readonly emit: (event: SessionEvent) => void,
    /** Retries already made: a run resumed in a new generation goes on counting (run.ts). */
    private attempt = 0,
  ) {}

  /** Retries made so far in this run, for a run that parks between turns. */
  get attempts(): number {
    return this.attempt;
  }

  /**
   * After a run ended in the error `last`: waits the backoff and resolves true when the run should go
   * again; false when this error ends it (not transient, retries used up, the server asks for a longer
   * wait than the limit, or the wait was cancelled), after reporting the failure of any retry so far.
   */
  async again(last: AssistantMessage): Promise<boolean> {
    const { policy } = this;
    // The server's own wait (Retry-After), when it gave one: longer than the limit means give up now;
    // the provider's error message already says so in one line.
    const serverWaitMs = retryAfterMsOf(last);
    const retry =
      policy.enabled &&
      this.autoRetry() &&
      isRetryable(last) &&
      this.attempt < policy.maxRetries &&
      !exceedsRetryLimit(serverWaitMs, policy);
    if (!retry) {
      this.fail(last.errorMessage);
      return false;
    }
    this.attempt++;
    const delayMs = serverWaitMs ?? retryDelayMs(this.attempt - 1, policy);
    this.emit({
      type: "auto_retry_start",
      attempt: this.attempt,
      maxAttempts: policy.maxRetries,
      delayMs,
      errorMessage: last.errorMessage ?? "",
    });
    this.waiting = new AbortController();
    try {
      await sleep(delayMs, this.waiting.signal);
      return true;
    } catch {
      this.fail("retry cancelled");
      return false;
    } finally {
      this.waiting = undefined;
    }
  }

  /**
   * When the run is over: if it was retried and no failure was reported (it ended in an answer, an
   * abort or a compaction that could not help), the retries count as a success.
   */
  finish(): void {
    if (this.attempt > 0) this.emit({ type: "auto_retry_end", success: true, attempt: this.attempt });
    this.attempt = 0;
  }

  /** Ends a backoff wait now; the run stops instead of trying again. */
  cancel(): void {
    this.waiting?.abort();
  }

  private fail(finalError: string | undefined): void {
    if (this.attempt > 0) this.emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError });
    this.attempt = 0;
  }
}
