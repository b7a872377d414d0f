/**
 * Small test helpers for the kernel tests: deferred promises, inline sources, a phase hook that can
 * hold the kernel at an exact point, and an event recorder. No timers: tests synchronize on promises.
 */
import type { Kernel, PhaseInfo, PluginDefinition, PluginSource } from "../../kernel/index.js";

/** A promise with its resolvers, for holding work open until the test says so. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Makes a Deferred. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** An inline source for a definition; the label defaults to the plugin id. */
export function inline(definition: PluginDefinition<any, any>, label: string = definition.id): PluginSource {
  return { kind: "inline", label, definition };
}

/** Lets every queued microtask (and anything they chain) run; one turn of the event loop. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Tracks whether a promise has settled, without awaiting it. */
export function track<T>(promise: Promise<T>): { readonly settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

interface Trap {
  match: (info: PhaseInfo) => boolean;
  reached: Deferred<PhaseInfo>;
  resume: Deferred<void>;
}

/** A phase hook that records every phase and can stop the kernel at a chosen one until resumed. */
export class Phases {
  readonly seen: PhaseInfo[] = [];
  private traps: Trap[] = [];

  /** Pass this as `new Kernel({ phaseHook: phases.hook })`. */
  readonly hook = async (info: PhaseInfo): Promise<void> => {
    this.seen.push(info);
    const trap = this.traps.find((t) => t.match(info));
    if (trap === undefined) return;
    this.traps.splice(this.traps.indexOf(trap), 1);
    trap.reached.resolve(info);
    await trap.resume.promise;
  };

  /** Stops the kernel the next time it enters `phase` for `pluginId` (and `generation`, if given). */
  pause(
    pluginId: string,
    phase: PhaseInfo["phase"],
    generation?: number,
  ): { reached: Promise<PhaseInfo>; resume: () => void } {
    const trap: Trap = {
      match: (i) =>
        i.pluginId === pluginId && i.phase === phase && (generation === undefined || i.generation === generation),
      reached: deferred<PhaseInfo>(),
      resume: deferred<void>(),
    };
    this.traps.push(trap);
    return { reached: trap.reached.promise, resume: () => trap.resume.resolve() };
  }
}

/** Records every payload of `event`, and resolves `next()` on the next one. */
export function record<T = any>(kernel: Kernel, event: string): { all: T[]; next: () => Promise<T>; off: () => void } {
  const all: T[] = [];
  let waiters: Array<(payload: T) => void> = [];
  const off = kernel.on(event, (payload: T) => {
    all.push(payload);
    const wake = waiters;
    waiters = [];
    for (const w of wake) w(payload);
  });
  return { all, next: () => new Promise<T>((resolve) => waiters.push(resolve)), off };
}
