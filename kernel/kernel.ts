/**
 * The kernel: it loads plugins, binds their providers to stable handles and moves each plugin from one
 * generation to the next through load → prepare → gate → migrate → commit → retire, one operation at a
 * time. It knows plugins, contracts, generations and handles — never what any of them mean.
 */
import "./reflect.js";
import { container as rootContainer, type DependencyContainer } from "tsyringe";
import { checkNeeds, checkOffers, type Need, type Offer } from "./compat.js";
import { shapeMismatch, type Contract } from "./contract.js";
import { checkState, type SchemaError, validated } from "./config.js";
import { createContext, PluginTokens, type ContextHost } from "./context.js";
import {
  ContractError,
  DeclareOnlyError,
  formatLifecycleError,
  lifecycleError,
  type LifecycleError,
  type Phase,
} from "./errors.js";
import { EventBus, type EventKey, type EventToken } from "./events.js";
import { Generation, type GenerationSource } from "./generation.js";
import { Handle, ManyHandle, type HandleRuntime } from "./handles.js";
import { runWatchingIo } from "./io-guard.js";
import { PluginLoader, sourceLabel, type PluginSource } from "./loader.js";
import { providesOf, requiresOf, type PluginDefinition } from "./plugin.js";
import { LifecycleQueue } from "./queue.js";

/** One plugin the kernel should run: an id, where its code is, its raw config, and whether it is on. */
export interface PluginEntry {
  id: string;
  source: PluginSource;
  config?: unknown;
  enabled?: boolean;
}

/** Where the kernel is in a lifecycle operation; tests pause here through `phaseHook`. */
export interface PhaseInfo {
  pluginId: string;
  phase: Phase;
  generation: number;
}

/** Kernel tuning; every bound has a default a user never needs to touch. */
export interface KernelOptions {
  /** Module specifiers resolved to the host's own modules when loading plugin source (e.g. "pi-host"). */
  virtualModules?: Record<string, unknown>;
  /** The host's content hash of a file plugin's source: an unchanged source reloads as a no-op. */
  hashSource?: (entry: string) => Promise<string>;
  /** How long one disposer may take at retire before it is cut off and reported. */
  disposeTimeoutMs?: number;
  /** How long retire waits for admitted work on the old generation before disposing anyway. */
  drainTimeoutMs?: number;
  /** Awaited at the start of each phase; lets tests hold the kernel at an exact point. */
  phaseHook?: (info: PhaseInfo) => void | Promise<void>;
}

/** How one lifecycle operation ended. Operations never reject; failures come back here as data. */
export interface OperationResult {
  pluginId: string;
  status: "committed" | "deferred" | "noop" | "aborted";
  generation?: number;
  error?: LifecycleError;
}

/** What `boot` reports: config errors refuse the whole boot before any setup runs. */
export interface BootResult {
  ok: boolean;
  configErrors: Array<{ pluginId: string; field: string; message: string }>;
  errors: LifecycleError[];
}

/** One plugin as `describe()` shows it. */
export interface PluginDescription {
  id: string;
  name: string | undefined;
  version: string | undefined;
  source: string;
  generation: number | undefined;
  status: "active" | "disabled" | "failed";
  /** The validated config the active generation runs with. */
  config: unknown;
  provides: Array<{ contract: string; version: string; key: string }>;
  requires: Array<{ contract: string; range: string }>;
}

/** A snapshot of everything the kernel has registered; equal before and after an aborted reload. */
export interface KernelDescription {
  plugins: PluginDescription[];
  handles: Array<{ contract: string; key: string; pluginId: string; generation: number }>;
  listeners: Record<string, number>;
}

interface PluginRecord {
  id: string;
  source: PluginSource;
  config: unknown;
  enabled: boolean;
  active: Generation | undefined;
  retiring: Generation | undefined;
  /** A reload at its boundary gate, holding new work until its safe point or its deadline. */
  gating: GateWait | undefined;
  /** A reload past its gate deadline, applied at the next safe point. */
  deferred: { next: Generation | undefined; requested: Requested; cancel: () => void } | undefined;
  failed: boolean;
  nextGeneration: number;
}

/** A change requested of one plugin: new code, new config, or a new enabled state. */
interface Change {
  source?: PluginSource;
  config?: unknown;
  enabled?: boolean;
}

/** What a change resolved to: a newer change that supersedes it while it waits starts from here. */
interface Requested {
  source: PluginSource;
  config: unknown;
  enabled: boolean;
}

/**
 * A reload waiting at a boundary gate. The wait happens beside the lifecycle queue, not in it, so the
 * reloads of other plugins go on meanwhile; `settle` answers the caller once it commits, is deferred at
 * its deadline, is superseded by a newer change (with that change's outcome) or is dropped by shutdown.
 */
interface GateWait {
  next: Generation | undefined;
  requested: Requested;
  settle: (result: OperationResult) => void;
  result: Promise<OperationResult>;
  /** Stops waiting: clears the deadline timer and the idle waiter. Holds are released by the caller. */
  cancel: () => void;
}

/** How a change left the queue: done, or still waiting at its gate (the queue moves on regardless). */
type ChangeOutcome = OperationResult | { waiting: Promise<OperationResult> };

/** The plugin host's core. One instance per running agent. */
export class Kernel {
  /** How many times code of a retired generation tried to use its context. */
  staleUses = 0;
  private readonly records = new Map<string, PluginRecord>();
  /** Changes requested of each plugin and not yet taken up by its queued task. */
  private readonly pending = new Map<string, Change>();
  private readonly singles = new Map<string, Handle<any>>();
  private readonly manys = new Map<string, ManyHandle<any>>();
  private readonly hostNeeds: Need[] = [];
  private readonly runtime: HandleRuntime = { declaring: undefined };
  private readonly queue = new LifecycleQueue();
  private readonly bus: EventBus;
  private readonly loader: PluginLoader;
  private readonly root: DependencyContainer;
  private readonly contextHost: ContextHost;
  private readonly disposeTimeoutMs: number;
  private readonly drainTimeoutMs: number;
  private shuttingDown = false;

  constructor(private readonly options: KernelOptions = {}) {
    this.loader = new PluginLoader({ virtualModules: options.virtualModules, hashSource: options.hashSource });
    this.root = rootContainer.createChildContainer();
    this.disposeTimeoutMs = options.disposeTimeoutMs ?? 2_000;
    this.drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
    this.bus = new EventBus((gen, error) => {
      if (gen !== undefined) this.report(lifecycleError(gen.pluginId, "runtime", gen.number, error));
    });
    this.contextHost = {
      recordProvide: (gen, contract, implementation, key) => this.recordProvide(gen, contract, implementation, key),
      handle: (contract) => this.use(contract),
      manyHandle: (contract) => this.useAll(contract),
      listen: (gen, event, handler) => this.bus.add(event, handler, gen),
      emit: (event, payload) => this.bus.emit(event, payload),
      validateState: (gen, next) => {
        if (gen.definition.state) checkState(gen.definition.state.schema, next);
      },
      countStaleUse: () => {
        this.staleUses++;
      },
    };
  }

  // ── public API ────────────────────────────────────────────────────────────────────────────────

  /** A stable handle to the provider of a `single` contract. */
  use<T>(contract: Contract<T>): Handle<T> {
    if (contract.kind !== "single") throw new Error(`"${contract.id}" takes many providers; use useAll()`);
    let handle = this.singles.get(contract.id);
    if (handle === undefined) {
      handle = new Handle(contract, contract.id, this.runtime);
      this.singles.set(contract.id, handle);
      this.root.register(contract.token, { useValue: handle });
    }
    return handle as Handle<T>;
  }

  /** Stable handles to every provider of a `many` contract. */
  useAll<T>(contract: Contract<T>): ManyHandle<T> {
    if (contract.kind !== "many") throw new Error(`"${contract.id}" takes a single provider; use use()`);
    let many = this.manys.get(contract.id);
    if (many === undefined) {
      many = new ManyHandle(contract, this.runtime);
      this.manys.set(contract.id, many);
      this.root.register(contract.token, { useValue: many });
    }
    return many as ManyHandle<T>;
  }

  /** Declares that the host itself needs `contract` in `range`; boot fails without a provider. */
  require(contract: Contract<any>, range = `^${contract.version}`): void {
    this.hostNeeds.push({ who: "the host", contract, range, optional: false });
  }

  /** Listens to kernel and plugin events (`kernel:error`, `kernel:commit`, `kernel:deferred`, ...). */
  on<T>(event: EventToken<T>, handler: (payload: T) => void): () => void;
  on(event: string, handler: (payload: any) => void): () => void;
  on(event: EventKey, handler: (payload: any) => void): () => void {
    return this.bus.add(event, handler);
  }

  /** Emits an event on the bus, as the host. A typed event checks the payload. */
  emit<T>(event: EventToken<T>, payload: T): void;
  emit(event: string, payload?: unknown): void;
  emit(event: EventKey, payload?: unknown): void {
    this.bus.emit(event, payload);
  }

  /** Resolves when no lifecycle operation is queued, running or waiting at a gate (deferred reloads do not count). */
  async idle(): Promise<void> {
    for (;;) {
      await this.queue.idle();
      const waits = [...this.records.values()].flatMap((r) => (r.gating !== undefined ? [r.gating.result] : []));
      if (waits.length === 0 && !this.queue.busy) return;
      await Promise.all(waits);
    }
  }

  /** The entries the kernel knows, with their current source and config. */
  entries(): PluginEntry[] {
    return [...this.records.values()].map((r) => ({
      id: r.id,
      source: r.source,
      config: r.config,
      enabled: r.enabled,
    }));
  }

  /** The generation currently serving a plugin, for hosts and tests. */
  activeGeneration(pluginId: string): number | undefined {
    return this.records.get(pluginId)?.active?.number;
  }

  /** How many generations of a plugin are alive (active, retiring or waiting at a gate). */
  liveGenerations(pluginId: string): number {
    const r = this.records.get(pluginId);
    if (r === undefined) return 0;
    return [r.active, r.retiring, r.gating?.next, r.deferred?.next].filter((g) => g !== undefined).length;
  }

  /** Starts a distribution. Config errors refuse it before any setup runs; other failures skip one plugin. */
  boot(entries: PluginEntry[]): Promise<BootResult> {
    return this.queue.enqueue(undefined, () => this.bootNow(entries));
  }

  /** Reloads a plugin from its source (or a new one); identical source is a no-op. */
  reload(pluginId: string, change: { source?: PluginSource } = {}): Promise<OperationResult> {
    return this.request(pluginId, { source: change.source });
  }

  /** Re-runs a plugin with new config through the same reload cycle. */
  configure(pluginId: string, config: unknown): Promise<OperationResult> {
    return this.request(pluginId, { config });
  }

  /** Turns a plugin on. */
  enable(pluginId: string): Promise<OperationResult> {
    return this.request(pluginId, { enabled: true });
  }

  /** Turns a plugin off: its generation retires and its handles go unbound. */
  disable(pluginId: string): Promise<OperationResult> {
    return this.request(pluginId, { enabled: false });
  }

  /** Adds a new plugin entry at run time and starts it when enabled. */
  add(entry: PluginEntry): Promise<OperationResult> {
    if (!this.records.has(entry.id)) this.records.set(entry.id, newRecord({ ...entry, enabled: false }));
    return this.request(entry.id, { source: entry.source, config: entry.config, enabled: entry.enabled ?? true });
  }

  /** Retires every generation in reverse order and refuses further work. */
  shutdown(): Promise<void> {
    return this.queue.enqueue("shutdown", async () => {
      this.shuttingDown = true;
      for (const record of [...this.records.values()].reverse()) {
        const waiting = this.dropGateWait(record);
        const number = waiting?.next?.number ?? record.active?.number ?? 0;
        waiting?.settle({
          pluginId: record.id,
          status: "aborted",
          generation: number,
          error: lifecycleError(record.id, "gate", number, new Error("the kernel is shutting down")),
        });
        this.discardDeferred(record);
        const old = record.active;
        if (old === undefined) continue;
        record.active = undefined;
        this.unbind(old);
        old.status = "retiring";
        record.retiring = old;
        await this.retire(record, old);
      }
    });
  }

  /** Everything registered, in a stable order: plugins, bound handles, listener counts. */
  describe(): KernelDescription {
    const plugins = [...this.records.values()].map((r): PluginDescription => {
      const gen = r.active;
      return {
        id: r.id,
        name: gen?.definition.id,
        version: gen?.definition.version,
        source: sourceLabel(r.source),
        generation: gen?.number,
        status: gen ? "active" : r.enabled && r.failed ? "failed" : "disabled",
        config: gen?.config,
        provides: (gen?.provided ?? []).map((p) => ({ contract: p.contract.id, version: p.version, key: p.key })),
        requires: gen ? requiresOf(gen.definition).map((q) => ({ contract: q.contract.id, range: q.range })) : [],
      };
    });
    const handles: KernelDescription["handles"] = [];
    for (const h of this.singles.values())
      if (h.binding)
        handles.push({
          contract: h.contract.id,
          key: h.key,
          pluginId: h.binding.gen.pluginId,
          generation: h.binding.gen.number,
        });
    for (const m of this.manys.values())
      for (const h of m.list())
        handles.push({
          contract: h.contract.id,
          key: h.key,
          pluginId: h.binding!.gen.pluginId,
          generation: h.binding!.gen.number,
        });
    return { plugins, handles, listeners: this.bus.counts() };
  }

  // ── boot ──────────────────────────────────────────────────────────────────────────────────────

  private async bootNow(entries: PluginEntry[]): Promise<BootResult> {
    const result: BootResult = { ok: true, configErrors: [], errors: [] };
    for (const entry of entries) this.records.set(entry.id, newRecord(entry));
    const loaded: Array<{
      record: PluginRecord;
      definition: PluginDefinition<any, any>;
      hash: string | undefined;
      config: unknown;
    }> = [];
    for (const record of this.records.values()) {
      if (!record.enabled) continue;
      const number = record.nextGeneration++;
      await this.phase(record.id, "load", number);
      try {
        const { definition, hash } = await this.loader.load(record.source);
        loaded.push({ record, definition, hash, config: undefined });
      } catch (error) {
        result.errors.push(this.fail(record, "load", number, error));
      }
    }
    for (const item of loaded) {
      try {
        item.config = validated(item.definition.config, item.record.config, "config");
      } catch (error) {
        const e = error as SchemaError;
        result.configErrors.push({
          pluginId: item.record.id,
          field: e.field ?? "config",
          message: e.reason ?? e.message,
        });
      }
    }
    if (result.configErrors.length > 0) return { ...result, ok: false };

    const prepared: Generation[] = [];
    for (const item of loaded) {
      const number = item.record.nextGeneration - 1;
      try {
        await this.phase(item.record.id, "prepare", number);
        checkOffers(item.record.id, offersOf(item.record.id, item.definition), prepared.flatMap(offersOfGen), []);
        const origin = { entry: item.record.source, config: item.record.config, hash: item.hash };
        prepared.push(this.prepare(item.record, item.definition, origin, item.config, number));
      } catch (error) {
        result.errors.push(this.fail(item.record, "prepare", number, error));
      }
    }
    // Requirements are checked against the whole prepared set; a plugin dropped for an unmet need can
    // leave another's need unmet, so repeat until nothing changes.
    for (let changed = true; changed; ) {
      changed = false;
      for (const gen of [...prepared]) {
        try {
          checkNeeds(needsOf(gen.pluginId, gen.definition), prepared.flatMap(offersOfGen));
        } catch (error) {
          prepared.splice(prepared.indexOf(gen), 1);
          this.discard(gen);
          result.errors.push(this.fail(this.records.get(gen.pluginId)!, "prepare", gen.number, error));
          changed = true;
        }
      }
    }
    for (const gen of prepared) {
      const record = this.records.get(gen.pluginId)!;
      try {
        this.initialState(gen);
        await this.phase(record.id, "commit", gen.number);
        this.commit(record, undefined, gen);
      } catch (error) {
        this.discard(gen);
        result.errors.push(this.fail(record, "commit", gen.number, error));
      }
    }
    try {
      checkNeeds(this.hostNeeds, this.liveOffers());
    } catch (error) {
      result.errors.push(lifecycleError("host", "boot", 0, error));
      this.emit("kernel:error", result.errors.at(-1));
      result.ok = false;
    }
    await Promise.all(prepared.map((gen) => this.runStartHooks(gen)));
    return result;
  }

  // ── one change to one plugin: the reload cycle ────────────────────────────────────────────────

  /**
   * Queues a change to one plugin. A request that finds one still waiting merges into it, later fields
   * winning, so a burst of saves is one reload and no requested source, config or on/off is dropped.
   */
  private request(pluginId: string, change: Change): Promise<OperationResult> {
    const waiting = this.pending.get(pluginId);
    this.pending.set(pluginId, {
      source: change.source ?? waiting?.source,
      config: change.config !== undefined ? change.config : waiting?.config,
      enabled: change.enabled ?? waiting?.enabled,
    });
    const outcome = this.queue.enqueue(`change:${pluginId}`, () => {
      const merged = this.pending.get(pluginId) ?? {};
      this.pending.delete(pluginId);
      return this.changeNow(pluginId, merged);
    });
    return outcome.then(settledResult);
  }

  private async changeNow(pluginId: string, change: Change): Promise<ChangeOutcome> {
    const record = this.records.get(pluginId);
    if (record === undefined) {
      return {
        pluginId,
        status: "aborted",
        error: this.report(
          lifecycleError(pluginId, "load", 0, new Error(`no plugin "${pluginId}" in the distribution`)),
        ),
      };
    }
    if (this.shuttingDown)
      return {
        pluginId,
        status: "aborted",
        error: lifecycleError(pluginId, "load", 0, new Error("the kernel is shutting down")),
      };
    // A newer request supersedes a reload waiting for its safe point: it starts from what that one asked
    // for (so no requested source or config is dropped), and a caller still waiting gets this outcome.
    const base: Requested = record.gating?.requested ??
      record.deferred?.requested ?? { source: record.source, config: record.config, enabled: record.enabled };
    const superseded = this.dropGateWait(record);
    if (record.deferred !== undefined) {
      this.releaseHolds(record.active);
      this.discardDeferred(record);
    }
    const outcome = await this.applyChange(record, change, base);
    if (superseded !== undefined) void settledResult(outcome).then(superseded.settle);
    return outcome;
  }

  private async applyChange(record: PluginRecord, change: Change, base: Requested): Promise<ChangeOutcome> {
    const pluginId = record.id;
    const enabled = change.enabled ?? base.enabled;
    const source = change.source ?? base.source;
    const config = change.config !== undefined ? change.config : base.config;
    const requested: Requested = { source, config, enabled };

    if (!enabled) {
      const active = record.active;
      const blocker = active !== undefined ? this.removalBlocker(pluginId) : undefined;
      if (active !== undefined && blocker !== undefined) {
        return {
          pluginId,
          status: "aborted",
          generation: active.number,
          error: this.report(lifecycleError(pluginId, "prepare", active.number, blocker)),
        };
      }
      record.enabled = false;
      record.source = source;
      record.config = config;
      if (record.active === undefined) return { pluginId, status: "noop" };
      return this.transition(record, undefined, requested);
    }

    if (
      record.active !== undefined &&
      change.source === undefined &&
      change.config === undefined &&
      source.kind === "file"
    ) {
      const hash = await this.loader.hash(source.path);
      if (hash !== undefined && hash === record.active.source.hash)
        return { pluginId, status: "noop", generation: record.active.number };
    }
    const number = record.nextGeneration++;
    let next: Generation;
    let phase: Phase = "load";
    try {
      await this.phase(pluginId, "load", number);
      const { definition, hash } = await this.loader.load(source);
      phase = "prepare";
      await this.phase(pluginId, "prepare", number);
      const others = this.othersThan(pluginId);
      checkOffers(pluginId, offersOf(pluginId, definition), others.offers, others.needs);
      const validConfig = validated(definition.config, config, "config");
      next = this.prepare(record, definition, { entry: source, config, hash }, validConfig, number);
      try {
        checkNeeds(needsOf(pluginId, definition), [...others.offers, ...offersOfGen(next)]);
      } catch (error) {
        this.discard(next);
        throw error;
      }
    } catch (error) {
      return {
        pluginId,
        status: "aborted",
        generation: number,
        error: this.report(lifecycleError(pluginId, phase, number, error)),
      };
    }
    return this.transition(record, next, requested);
  }

  /** Gate, migrate, commit, retire: moves `record` from its active generation to `next` (or to none). */
  private async transition(
    record: PluginRecord,
    next: Generation | undefined,
    requested: Requested,
  ): Promise<ChangeOutcome> {
    const old = record.active;
    if (old !== undefined) {
      await this.phase(record.id, "gate", next?.number ?? old.number);
      return this.throughGate(record, old, next, requested);
    }
    return this.finish(record, old, next);
  }

  /**
   * Boundary gate: holds new work on the old generation's stateful contracts. Idle now → on to commit.
   * Busy → the reload waits for the safe point beside the queue (see GateWait) and the queue moves on.
   */
  private async throughGate(
    record: PluginRecord,
    old: Generation,
    next: Generation | undefined,
    requested: Requested,
  ): Promise<ChangeOutcome> {
    const held = this.boundaryHandles(old);
    for (const h of held) h.hold();
    if (held.length === 0 || old.inFlight === 0) return this.finish(record, old, next);
    return { waiting: this.waitForSafePoint(record, old, next, requested, held) };
  }

  /** Waits, bounded by the contract's deadline, for `old` to go idle; then finishes through the queue's front. */
  private waitForSafePoint(
    record: PluginRecord,
    old: Generation,
    next: Generation | undefined,
    requested: Requested,
    held: Array<Handle<any>>,
  ): Promise<OperationResult> {
    let settle!: (result: OperationResult) => void;
    const result = new Promise<OperationResult>((resolve) => (settle = resolve));
    const wait: GateWait = { next, requested, settle, result, cancel: () => {} };
    record.gating = wait;
    const deadline = Math.max(...held.map((h) => h.contract.deadlineMs));
    const timer = setTimeout(() => {
      if (record.gating !== wait) return;
      record.gating = undefined;
      stopWaiting();
      for (const h of held) h.release();
      settle(this.defer(record, old, next, requested));
    }, deadline);
    const stopWaiting = old.onIdle(() => {
      clearTimeout(timer);
      void this.queue.enqueue(
        `gate:${record.id}`,
        async () => {
          if (record.gating !== wait) return;
          record.gating = undefined;
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
      this.releaseHolds(old);
      if (next !== undefined) this.discard(next);
      return {
        pluginId: record.id,
        status: "aborted",
        generation: number,
        error: this.report(lifecycleError(record.id, phase, number, error)),
      };
    }
    if (next !== undefined) void this.runStartHooks(next);
    if (old !== undefined) await this.retire(record, old);
    return { pluginId: record.id, status: "committed", generation: next?.number };
  }

  // ── phases ────────────────────────────────────────────────────────────────────────────────────

  /** Runs setup in declare mode and records what it declared. Throws on any problem; changes nothing. */
  private prepare(
    record: PluginRecord,
    definition: PluginDefinition<any, any>,
    origin: GenerationSource,
    config: unknown,
    number: number,
  ): Generation {
    const gen = new Generation(record.id, number, definition, config, origin);
    const container = this.root.createChildContainer();
    for (const need of requiresOf(definition)) {
      if (need.contract.kind === "single") this.use(need.contract);
      else this.useAll(need.contract);
    }
    const ctx = createContext(gen, this.contextHost, container);
    container.register(PluginTokens.Context, { useValue: ctx });
    container.register(PluginTokens.Config, { useValue: config });
    gen.container = container;
    this.runtime.declaring = gen;
    try {
      const { result, io } = runWatchingIo(() => definition.setup(ctx));
      if (result !== null && typeof result === "object" && typeof (result as Promise<unknown>).then === "function") {
        throw new DeclareOnlyError(record.id, "setup returned a promise; setup must be synchronous");
      }
      if (io.length > 0) throw new DeclareOnlyError(record.id, `it started I/O (${[...new Set(io)].join(", ")})`);
    } catch (error) {
      this.discard(gen);
      throw error;
    } finally {
      this.runtime.declaring = undefined;
    }
    // A `many` contract may legitimately get no provider this time (an extension host with no extensions).
    const missing = providesOf(definition).find(
      (p) => p.contract.kind === "single" && !gen.provided.some((q) => q.contract.id === p.contract.id),
    );
    if (missing !== undefined) {
      this.discard(gen);
      throw new ContractError(
        `plugin "${record.id}" declares it provides "${missing.contract.id}" but its setup never called ctx.provide() for it`,
      );
    }
    return gen;
  }

  /** Called through ctx.provide during setup: checks and records one provider value. */
  private recordProvide(
    gen: Generation,
    contract: Contract<any>,
    implementation: unknown,
    key: string | undefined,
  ): void {
    const declared = providesOf(gen.definition).find((p) => p.contract.id === contract.id);
    if (declared === undefined)
      throw new ContractError(`plugin "${gen.pluginId}" provides "${contract.id}" without listing it in \`provides\``);
    const siblings = gen.provided.filter((p) => p.contract.id === contract.id);
    if (contract.kind === "single" && siblings.length > 0)
      throw new ContractError(`plugin "${gen.pluginId}" provides the single contract "${contract.id}" twice`);
    const slotKey = key ?? String(siblings.length);
    if (siblings.some((p) => p.key === slotKey))
      throw new ContractError(`plugin "${gen.pluginId}" provides "${contract.id}" twice under key "${slotKey}"`);
    const value = isClass(implementation) ? instantiate(implementation, gen.container!) : implementation;
    const mismatch = shapeMismatch(contract, value);
    if (mismatch) throw new ContractError(`plugin "${gen.pluginId}": ${mismatch}`);
    gen.provided.push({ contract, key: slotKey, version: declared.version, value });
  }

  /** The deadline passed: keep `next` ready and apply it the moment the old generation is idle. */
  private defer(
    record: PluginRecord,
    old: Generation,
    next: Generation | undefined,
    requested: Requested,
  ): OperationResult {
    const cancel = old.onIdle(() => {
      for (const h of this.boundaryHandles(old)) h.hold();
      void this.queue.enqueue(
        `deferred:${record.id}`,
        async () => {
          if (record.deferred?.next !== next || record.active !== old) return;
          record.deferred = undefined;
          await this.phase(record.id, "gate", next?.number ?? old.number);
          // Idle and held, this normally commits at once; busy again (an overlap contract of the same
          // plugin), it waits at the gate once more, and past the deadline it is deferred once more.
          await this.throughGate(record, old, next, requested);
        },
        { front: true },
      );
    });
    record.deferred = { next, requested, cancel };
    const number = next?.number ?? old.number;
    this.emit("kernel:deferred", {
      pluginId: record.id,
      generation: number,
      reason: `no safe point within the gate deadline; waiting for the next one`,
    });
    return { pluginId: record.id, status: "deferred", generation: number };
  }

  /** Runs state migration exactly once; the result must satisfy the new state schema. */
  private migrate(old: Generation | undefined, next: Generation): void {
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
    checkState(spec.schema, migrated);
    next.state = migrated;
  }

  /** One synchronous step: start the new generation's effects, then re-point every handle. */
  private commit(record: PluginRecord, old: Generation | undefined, next: Generation | undefined): void {
    if (next !== undefined) next.activateEffects();
    if (old !== undefined) {
      this.unbind(old);
      old.status = "retiring";
      record.retiring = old;
    }
    if (next !== undefined) {
      next.status = "active";
      record.source = next.source.entry;
      record.config = next.source.config;
      for (const p of next.provided)
        this.slotOf(next.pluginId, p.contract, p.key).binding = { value: p.value, version: p.version, gen: next };
    }
    this.releaseHolds(old);
    record.active = next;
    record.enabled = next !== undefined;
    record.failed = false;
    this.emit("kernel:commit", { pluginId: record.id, generation: next?.number, previous: old?.number });
  }

  /** Lets admitted work finish, then disposes the old generation's effects and forgets it. */
  private async retire(record: PluginRecord, old: Generation): Promise<void> {
    await this.phase(record.id, "retire", old.number);
    if (!(await idleWithin(old, this.drainTimeoutMs))) {
      this.report(
        lifecycleError(
          record.id,
          "retire",
          old.number,
          new Error(`admitted work did not finish within ${this.drainTimeoutMs} ms; disposing anyway`),
        ),
      );
    }
    await old.disposeEffects(this.disposeTimeoutMs, (error) =>
      this.report(lifecycleError(record.id, "retire", old.number, error)),
    );
    old.status = "retired";
    old.release();
    if (record.retiring === old) record.retiring = undefined;
    this.emit("kernel:retired", { pluginId: record.id, generation: old.number });
  }

  // ── helpers ───────────────────────────────────────────────────────────────────────────────────

  private async phase(pluginId: string, phase: Phase, generation: number): Promise<void> {
    await this.options.phaseHook?.({ pluginId, phase, generation });
  }

  private initialState(gen: Generation): void {
    const spec = gen.definition.state;
    if (spec === undefined || gen.state !== undefined) return;
    const initial = spec.initial();
    checkState(spec.schema, initial);
    gen.state = initial;
  }

  private async runStartHooks(gen: Generation): Promise<void> {
    for (const hook of gen.takeStartHooks()) {
      try {
        await hook();
      } catch (error) {
        this.report(lifecycleError(gen.pluginId, "runtime", gen.number, error));
      }
    }
  }

  private slotOf(pluginId: string, contract: Contract<any>, key: string): Handle<any> {
    return contract.kind === "single" ? this.use(contract) : this.useAll(contract).slot(`${pluginId}#${key}`);
  }

  /** Points every handle bound to `gen` at nothing. */
  private unbind(gen: Generation): void {
    for (const p of gen.provided) {
      const slot = this.slotOf(gen.pluginId, p.contract, p.key);
      if (slot.binding?.gen === gen) slot.binding = undefined;
    }
  }

  private boundaryHandles(gen: Generation): Array<Handle<any>> {
    return gen.provided
      .filter((p) => p.contract.gate === "boundary")
      .map((p) => this.slotOf(gen.pluginId, p.contract, p.key));
  }

  private releaseHolds(gen: Generation | undefined): void {
    if (gen === undefined) return;
    for (const p of gen.provided) this.slotOf(gen.pluginId, p.contract, p.key).release();
  }

  /** Stops a reload waiting at its gate: releases the holds and drops its generation; returns it. */
  private dropGateWait(record: PluginRecord): GateWait | undefined {
    const wait = record.gating;
    if (wait === undefined) return undefined;
    record.gating = undefined;
    wait.cancel();
    this.releaseHolds(record.active);
    if (wait.next !== undefined) this.discard(wait.next);
    return wait;
  }

  private discardDeferred(record: PluginRecord): void {
    const deferred = record.deferred;
    if (deferred === undefined) return;
    record.deferred = undefined;
    deferred.cancel();
    if (deferred.next !== undefined) this.discard(deferred.next);
  }

  /** Drops a generation that never went live. */
  private discard(gen: Generation): void {
    gen.status = "discarded";
    gen.release();
  }

  /** Offers and needs of every live plugin except `pluginId`, plus the host's needs. */
  private othersThan(pluginId: string): { offers: Offer[]; needs: Need[] } {
    const gens = [...this.records.values()].filter((r) => r.id !== pluginId && r.active).map((r) => r.active!);
    return {
      offers: gens.flatMap(offersOfGen),
      needs: [...this.hostNeeds, ...gens.flatMap((g) => needsOf(g.pluginId, g.definition))],
    };
  }

  private liveOffers(): Offer[] {
    return [...this.records.values()].flatMap((r) => (r.active ? offersOfGen(r.active) : []));
  }

  /** Why `pluginId` cannot be switched off: someone needs a single contract only it provides. */
  private removalBlocker(pluginId: string): Error | undefined {
    const others = this.othersThan(pluginId);
    try {
      checkNeeds(others.needs, others.offers);
      return undefined;
    } catch (error) {
      return new ContractError(`cannot disable plugin "${pluginId}": ${(error as Error).message}`);
    }
  }

  private fail(record: PluginRecord, phase: Phase, number: number, cause: unknown): LifecycleError {
    record.failed = true;
    return this.report(lifecycleError(record.id, phase, number, cause));
  }

  private report(error: LifecycleError): LifecycleError {
    this.emit("kernel:error", error);
    return error;
  }
}

/** Re-exported for hosts that print lifecycle errors. */
export { formatLifecycleError };

function newRecord(entry: PluginEntry): PluginRecord {
  return {
    id: entry.id,
    source: entry.source,
    config: entry.config,
    enabled: entry.enabled ?? true,
    active: undefined,
    retiring: undefined,
    gating: undefined,
    deferred: undefined,
    failed: false,
    nextGeneration: 1,
  };
}

function offersOf(pluginId: string, definition: PluginDefinition<any, any>): Offer[] {
  return providesOf(definition).map((p) => ({ pluginId, contract: p.contract, version: p.version }));
}

function offersOfGen(gen: Generation): Offer[] {
  return offersOf(gen.pluginId, gen.definition);
}

function needsOf(pluginId: string, definition: PluginDefinition<any, any>): Need[] {
  return requiresOf(definition).map((r) => ({
    who: `plugin "${pluginId}"`,
    contract: r.contract,
    range: r.range,
    optional: r.optional,
  }));
}

/** The final result of a change, waiting for it if it is still at its gate. */
function settledResult(outcome: ChangeOutcome): Promise<OperationResult> {
  return "waiting" in outcome ? outcome.waiting : Promise.resolve(outcome);
}

/** Resolves true as soon as `gen` has no admitted work, or false after `ms`. */
function idleWithin(gen: Generation, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const cancel = gen.onIdle(() => {
      clearTimeout(timer);
      resolve(true);
    });
    if (gen.inFlight === 0) return;
    timer = setTimeout(() => {
      cancel();
      resolve(false);
    }, ms);
  });
}

function isClass(value: unknown): value is new (...args: any[]) => unknown {
  return typeof value === "function" && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/**
 * Builds a class provider from its `@inject(token)` parameters. tsyringe's own `resolve` needs
 * `@injectable()`, which keeps every class in a global map forever and so would pin every retired
 * generation in memory; reading the injection tokens here keeps generations collectable.
 */
function instantiate(ctor: new (...args: any[]) => unknown, container: DependencyContainer): unknown {
  type Descriptor = { token: string | symbol; multiple?: boolean; isOptional?: boolean };
  const tokens = (Reflect.getOwnMetadata("injectionTokens", ctor) ?? {}) as Record<
    string,
    Descriptor | string | symbol
  >;
  const args = Array.from({ length: ctor.length }, (_, i) => {
    const entry = tokens[i];
    if (entry === undefined) throw new Error(`constructor parameter ${i} of ${ctor.name} has no @inject(token)`);
    const d: Descriptor = typeof entry === "object" ? entry : { token: entry };
    if (d.isOptional && !container.isRegistered(d.token, true)) return d.multiple ? [] : undefined;
    return d.multiple ? container.resolveAll(d.token) : container.resolve(d.token);
  });
  return new ctor(...args);
}
