/**
 * Turn-level swaps. A long call that works in steps (a run of model turns) asks `ctx.safePoint(method,
 * ...args)` between two steps. Only while a reload of its plugin to a next generation waits for a safe
 * point does the answer say "move": the call parks what it was doing in its plugin state (migrate carries
 * it over) and returns the answer at once. That ends the call on this generation, so the gate no longer
 * waits for it; the handle then calls `method(...args)` on the generation bound once the gate lets calls
 * through (the next one after commit), and the caller's one promise settles with that call's outcome.
 */
import type { PluginRecord } from "./cycle.js";
import type { Generation } from "./generation.js";

/** A call's "moved to the next generation" outcome: the method and arguments that carry it on there. */
export class MovedCall {
  constructor(
    readonly method: string,
    readonly args: readonly unknown[],
  ) {}
}

/** Whether a reload of `gen`'s plugin waits for a safe point (at its gate or deferred), to a next generation. */
export type ReloadWaits = (gen: Generation) => boolean;

/** The kernel's answer to ReloadWaits, over its plugin records. */
export function reloadWaitsIn(records: Map<string, PluginRecord>): ReloadWaits {
  return (gen) => {
    const record = records.get(gen.pluginId);
    return record?.active === gen && record.waiting?.next !== undefined;
  };
}

/** `ctx.safePoint`: a MovedCall for the call to return when a reload waits; otherwise undefined (go on). */
export function safePoint(gen: Generation, waits: ReloadWaits, method: string, args: unknown[]): MovedCall | undefined {
  return gen.status === "active" && waits(gen) ? new MovedCall(method, args) : undefined;
}

/** The handle's side: an answer that is a MovedCall goes on through `invoke`; any other is the result. */
export function carryOn(value: unknown, invoke: (method: string, args: unknown[]) => unknown): unknown {
  return value instanceof MovedCall ? invoke(value.method, [...value.args]) : value;
}
