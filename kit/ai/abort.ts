/**
 * Abort-signal links that never leak listeners. A session hands one signal to every request of a run
 * (retries, parallel calls); if each request added its own `abort` listener to it, they would pile up
 * (Node warns past 10: MaxListenersExceededWarning) and keep finished requests reachable. Here each
 * caller signal gets at most one listener, shared by every request linked to it, and it is removed as
 * soon as the last request linked to it ends.
 */

/** The requests currently linked to each caller signal. */
const linked = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once when `signal` aborts (at once if it already has). Returns a function that
 * unlinks it; call it when the request ends, whatever the outcome.
 */
export function onAbort(signal: AbortSignal | undefined, callback: () => void): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) {
    callback();
    return () => {};
  }
  let callbacks = linked.get(signal);
  if (callbacks === undefined) {
    const set = new Set<() => void>();
    callbacks = set;
    linked.set(signal, set);
    const fire = (): void => {
      linked.delete(signal);
      listeners.delete(signal);
      for (const fn of [...set]) fn();
      set.clear();
    };
    signal.addEventListener("abort", fire, { once: true });
    // Remembered so the last unlink can remove the listener again.
    listeners.set(signal, fire);
  }
  const set = callbacks;
  set.add(callback);
  return () => {
    if (!set.delete(callback) || set.size > 0) return;
    const fire = listeners.get(signal);
    if (fire !== undefined) signal.removeEventListener("abort", fire);
    listeners.delete(signal);
    linked.delete(signal);
  };
}

/** The one listener installed on each linked caller signal. */
const listeners = new WeakMap<AbortSignal, () => void>();

/** A controller of its own for one request, aborted when the caller's signal aborts. */
export interface LinkedAbort {
  readonly controller: AbortController;
  /** Unlinks from the caller's signal. Idempotent. */
  dispose(): void;
}

/** Creates a request-scoped controller that follows `signal` until `dispose()`. */
export function linkAbort(signal: AbortSignal | undefined): LinkedAbort {
  const controller = new AbortController();
  const unlink = onAbort(signal, () => controller.abort(signal?.reason));
  return { controller, dispose: unlink };
}
