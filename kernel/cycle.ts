/**
 * The steps of a reload after prepare, for one plugin record: the gate (hold the stateful contracts and
 * wait for a safe point, or defer past the deadline), migrate, commit (one synchronous re-pointing of
 * handles) and retire (drain, dispose, forget). A step never rejects; failures come back as data.
 */
import { lifecycleError, type LifecycleError, type Phase } from "./errors.js";
import type { EventBus } from "./events.js";
import type { Generation } from "./generation.js";
import type { Handle } from "./handles.js";
import type { LifecycleQueue } from "./queue.js";
import type { HandleRegistry } from "./registry.js";
import type { KernelOptions, OperationResult, PluginEntry } from "./types.js";

/** What the kernel tracks of one plugin entry across its generations. */
export interface PluginRecord extends Requested {
  id: string;
  active?: Generation;
  retiring?: Generation;
  /** A reload that left the queue to wait for a safe point: at its gate, or deferred past the deadline. */
  waiting?: Waiting;
  failed: boolean;
  nextGeneration: number;
}

/** What a change resolved to: a newer change that supersedes it while it waits starts from here. */
export type Requested = Required<Omit<PluginEntry, "id">>;

/**
 * A reload waiting for a safe point beside the lifecycle queue, not in it, so the reloads of other plugins
 * go on meanwhile. At its boundary gate it holds new work until the safe point or its deadline, and
 * `settle` answers the caller once it commits, is deferred at its deadline, is superseded by a newer change
 * (with that change's outcome) or is dropped by shutdown. Past the deadline it is deferred: the caller has
 * its answer already (no `settle`), and the reload is applied at the next safe point.
 */
export interface Waiting {
  next: Generation | undefined;
  requested: Requested;
  /** At the gate only: answers the caller who waits, and the promise that caller holds. */
  settle?: (result: OperationResult) => void;
  result?: Promise<OperationResult>;
  /** Stops waiting: clears the deadline timer and the idle waiter. Holds are released by the caller. */
  cancel: () => void;
}

/** One reload at its gate: the record, the generation leaving, the one arriving (none: off), what was asked. */
interface Reload extends Pick<Waiting, "next" | "requested"> {
  record: PluginRecord;
  old: Generation;
}

/** How a change left the queue: done, or still waiting at its gate (the queue moves on regardless). */
export type ChangeOutcome = OperationResult | { waiting: Promise<OperationResult> };

/** A fresh record for an entry: nothing loaded yet. */
export function newRecord({ id, source, config, enabled = true }: PluginEntry): PluginRecord {
  return { id, source, config, enabled, failed: false, nextGeneration: 1 };
}

/** The final result of a change, waiting for it if it is still at its gate. */
export function settledResult(outcome: ChangeOutcome): Promise<OperationResult> {
  return "waiting" in outcome ? outcome.waiting : Promise.resolve(outcome);
}

/** The gate, migrate, commit and retire steps, over the kernel's handles, queue and bus. */
export class ReloadCycle {
  constructor(
    private readonly handles: HandleRegistry,
    private readonly queue: LifecycleQueue,
    private readonly bus: EventBus,
    private readonly options: KernelOptions,
  ) {}

  /** Gate, migrate, commit, retire: moves `record` from its active generation to `next` (or to none). */
  async transition(record: PluginRecord, next: Generation | undefined, requested: Requested): Promise<ChangeOutcome> {
    const old = record.active;
    if (old !== undefined) {
      await this.phase(record.id, "gate", next?.number ?? old.number);
      return this.throughGate({ record, old, next, requested });
    }
    return this.finish(record, old, next);
  }

  /** Runs state migration exactly once; the result must satisfy the new state schema. */
  migrate(old: Generation | undefined, next: Generation): void {
    const spec = next.definition.state;
    if (spec === undefined) return;
    const previousSpec = old?.definition.state;
    if (old === undefined || previousSpec === undefined) {
      this.initialState(next);
      return;
    }
    const migrated = spec.migrate ? spec.migrate(structuredClone(old.state), previousSpec.version) : old.state;
    if (!spec.migrate && previousSpec.version !== spec.version) {
      throw new Error(
        `state version changed from ${previousSpec.version} to ${spec.version} but the plugin has no state.migrate`,
      );
    }
    this.options.checkState?.(spec.schema, migrated);
    next.state = migrated;
  }

  /** Gives a generation without state from before its plugin's initial state, checked against the schema. */
  initialState(gen: Generation): void {
    const spec = gen.definition.state;
    if (spec === undefined || gen.state !== undefined) return;
    const initial = spec.initial();
    this.options.checkState?.(spec.schema, initial);
    gen.state = initial;
  }

  /** One synchronous step: start the new generation's effects, then re-point every handle. */
  commit(record: PluginRecord, old: Generation | undefined, next: Generation | undefined): void {
    if (next !== undefined) next.activateEffects();
    if (old !== undefined) this.takeOutOfService(record, old);
    if (next !== undefined) {
      next.status = "active";
      record.source = next.source.entry;
      record.config = next.source.config;
      this.handles.bind(next);
    }
    this.handles.releaseHolds(old);
    record.active = next;
    record.enabled = next !== undefined;
    record.failed = false;
    this.bus.emit("kernel:commit", { pluginId: record.id, generation: next?.number, previous: old?.number });
  }

  /** Shutdown's step: the active generation leaves service at once (no gate, no commit event) and retires. */
  async retireActive(record: PluginRecord): Promise<void> {
    const old = record.active;
    if (old === undefined) return;
    record.active = undefined;
    this.takeOutOfService(record, old);
    await this.retire(record, old);
  }

  /** Lets admitted work finish, then disposes the old generation's effects and forgets it. */
  async retire(record: PluginRecord, old: Generation): Promise<void> {
    await this.phase(record.id, "retire", old.number);
    const drainMs = this.options.drainTimeoutMs ?? 30_000;
    if (!(await old.idleWithin(drainMs))) {
      const late = new Error(`admitted work did not finish within ${drainMs} ms; disposing anyway`);
      this.report(lifecycleError(record.id, "retire", old.number, late));
    }
    await old.disposeEffects(this.options.disposeTimeoutMs ?? 2_000, (error) =>
      this.report(lifecycleError(record.id, "retire", old.number, error)),
    );
    old.status = "retired";
    old.release();
    if (record.retiring === old) record.retiring = undefined;
    this.bus.emit("kernel:retired", { pluginId: record.id, generation: old.number });
  }

  /** Runs a committed generation's `onStart` hooks; a failing hook is reported, the others still run. */
  async runStartHooks(gen: Generation): Promise<void> {
    for (const hook of gen.takeStartHooks()) {
      try {
        await hook();
      } catch (error) {
        this.report(lifecycleError(gen.pluginId, "runtime", gen.number, error));
      }
    }
  }

  /** Stops a reload waiting for a safe point: releases the holds and drops its generation; returns it. */
  dropWaiting(record: PluginRecord): Waiting | undefined {
    const wait = record.waiting;
    if (wait === undefined) return undefined;
    record.waiting = undefined;
    wait.cancel();
    this.handles.releaseHolds(record.active);
    wait.next?.discard();
    return wait;
  }

  /** Awaits the host's phase hook: tests hold the kernel at an exact point here. */
  async phase(pluginId: string, phase: Phase, generation: number): Promise<void> {
    await this.options.phaseHook?.({ pluginId, phase, generation });
  }

  /** An aborted operation's result, its error reported on the bus. */
  abort(pluginId: string, phase: Phase, generation: number, cause: unknown): OperationResult {
    const error = this.report(lifecycleError(pluginId, phase, generation, cause));
    return { pluginId, status: "aborted", generation, error };
  }

  /** Emits a lifecycle error on the bus and hands it back, for the operation's result. */
  report(error: LifecycleError): LifecycleError {
    this.bus.emit("kernel:error", error);
    return error;
  }

  /** Unbinds `old` from every handle: from here on it only finishes what it admitted. */
  private takeOutOfService(record: PluginRecord, old: Generation): void {
    this.handles.unbind(old);
    old.status = "retiring";
    record.retiring = old;
  }

  /**
   * Boundary gate: holds new work on the old generation's stateful contracts. Idle now → on to commit.
   * Busy → the reload waits for the safe point beside the queue (see Waiting) and the queue moves on.
   */
  private async throughGate(reload: Reload): Promise<ChangeOutcome> {
    const held = this.handles.boundaryHandles(reload.old);
    for (const h of held) h.hold();
    if (held.length === 0 || reload.old.inFlight === 0) return this.finish(reload.record, reload.old, reload.next);
    return { waiting: this.waitForSafePoint(reload, held) };
  }

  /** Waits, bounded by the contract's deadline, for `old` to go idle; then finishes through the queue's front. */
  private waitForSafePoint(reload: Reload, held: Array<Handle<any>>): Promise<OperationResult> {
    const { record, old, next, requested } = reload;
    let settle!: (result: OperationResult) => void;
    const result = new Promise<OperationResult>((resolve) => (settle = resolve));
    const wait: Waiting = { next, requested, settle, result, cancel: () => {} };
    record.waiting = wait;
    const deadline = Math.max(...held.map((h) => h.contract.deadlineMs));
    const timer = setTimeout(() => {
      if (record.waiting !== wait) return;
      stopWaiting();
      for (const h of held) h.release();
      settle(this.defer(reload));
    }, deadline);
    const stopWaiting = old.onIdle(() => {
      clearTimeout(timer);
      void this.queue.enqueue(
        `gate:${record.id}`,
        async () => {
          if (record.waiting !== wait) return;
          record.waiting = undefined;
          settle(await this.finish(record, old, next));
        },
        { front: true },
      );
    });
    wait.cancel = () => {
      clearTimeout(timer);
      stopWaiting();
    };
    return result;
  }

  /** Migrate, commit and retire; the gate (if any) is already closed and drained. */
  private async finish(
    record: PluginRecord,
    old: Generation | undefined,
    next: Generation | undefined,
  ): Promise<OperationResult> {
    const number = next?.number ?? old?.number ?? 0;
    let phase: Phase = "migrate";
    try {
      if (next !== undefined) {
        await this.phase(record.id, "migrate", number);
        this.migrate(old, next);
      }
      phase = "commit";
      await this.phase(record.id, "commit", number);
      this.commit(record, old, next);
    } catch (error) {
      this.handles.releaseHolds(old);
      next?.discard();
      return this.abort(record.id, phase, number, error);
    }
    if (next !== undefined) void this.runStartHooks(next);
    if (old !== undefined) await this.retire(record, old);
    return { pluginId: record.id, status: "committed", generation: next?.number };
  }

  /** The deadline passed: keep `next` ready and apply it the moment the old generation is idle. */
  private defer(reload: Reload): OperationResult {
    const { record, old, next, requested } = reload;
    const deferred: Waiting = { next, requested, cancel: () => {} };
    record.waiting = deferred;
    deferred.cancel = old.onIdle(() => {
      for (const h of this.handles.boundaryHandles(old)) h.hold();
      void this.queue.enqueue(
        `deferred:${record.id}`,
        async () => {
          if (record.waiting !== deferred || record.active !== old) return;
          record.waiting = undefined;
          await this.phase(record.id, "gate", next?.number ?? old.number);
          // Idle and held, this normally commits at once; busy again (an overlap contract of the same
          // plugin), it waits at the gate once more, and past the deadline it is deferred once more.
          await this.throughGate(reload);
        },
        { front: true },
      );
    });
    const number = next?.number ?? old.number;
    this.bus.emit("kernel:deferred", {
      pluginId: record.id,
      generation: number,
      reason: `no safe point within the gate deadline; waiting for the next one`,
    });
    return { pluginId: record.id, status: "deferred", generation: number };
  }
}
