/**
 * The kernel: it loads plugins, binds their providers to stable handles and moves each plugin from one
 * generation to the next through load → prepare → gate → migrate → commit → retire, one operation at a
 * time. This file holds the public API and the paths that start a change: boot, and one change to one
 * plugin up to its transition; cycle.ts holds the steps after prepare. It knows plugins, contracts,
 * generations and handles — never what any of them mean.
 */
import "./reflect.js";
import { container as rootContainer } from "tsyringe";
import { checkNeeds, checkOffers, type Need, needsOf, type Offer, offersOf } from "./compat.js";
import type { Contract } from "./contract.js";
import {
  type ChangeOutcome,
  newRecord,
  type PluginRecord,
  ReloadCycle,
  type Requested,
  settledResult,
} from "./cycle.js";
import { ContractError, lifecycleError, type LifecycleError, type Phase } from "./errors.js";
import { EventBus, type EventKey, type EventToken } from "./events.js";
import type { Generation } from "./generation.js";
import type { Handle, ManyHandle } from "./handles.js";
import type { LoadedPlugin, PluginSource } from "./loader.js";
import { prepare, type PrepareHost } from "./prepare.js";
import { LifecycleQueue } from "./queue.js";
import { HandleRegistry } from "./registry.js";
import { reloadWaitsIn } from "./safe-point.js";
import type { BootResult, KernelOptions, KernelSnapshot, OperationResult, PluginEntry } from "./types.js";

/** A change requested of one plugin: new code, new config, or a new enabled state. */
type Change = Partial<Requested>;

/** The plugin host's core. One instance per running agent. */
export class Kernel {
  /** How many times code of a retired generation tried to use its context. */
  staleUses = 0;
  private readonly records = new Map<string, PluginRecord>();
  /** Changes requested of each plugin and not yet taken up by its queued task. */
  private readonly pending = new Map<string, Change>();
  private readonly hostNeeds: Need[] = [];
  private readonly queue = new LifecycleQueue();
  private readonly bus: EventBus;
  private readonly handles: HandleRegistry;
  private readonly cycle: ReloadCycle;
  /** What a generation's setup and context reach of the kernel. */
  private readonly host: PrepareHost;
  /** The host's config check (KernelOptions.validateConfig), or the raw config as given. */
  private readonly validateConfig: NonNullable<KernelOptions["validateConfig"]>;
  private shuttingDown = false;

  constructor(private readonly options: KernelOptions = {}) {
    this.validateConfig = options.validateConfig ?? ((_schema, raw) => raw ?? {});
    const root = rootContainer.createChildContainer();
    this.handles = new HandleRegistry(root);
    this.bus = new EventBus((gen, error) => {
      if (gen !== undefined) this.cycle.report(lifecycleError(gen.pluginId, "runtime", gen.number, error));
    });
    this.cycle = new ReloadCycle(this.handles, this.queue, this.bus, options);
    this.host = {
      root,
      handles: this.handles,
      bus: this.bus,
      countStaleUse: () => void this.staleUses++,
      checkState: options.checkState,
      reloadWaits: reloadWaitsIn(this.records),
      watchSetup: options.watchSetup ?? ((body) => ({ result: body(), io: [] })),
    };
  }

  // ── public API ────────────────────────────────────────────────────────────────────────────────

  /** A stable handle to the provider of a `single` contract. */
  use<T>(contract: Contract<T>): Handle<T> {
    return this.handles.use(contract);
  }

  /** Stable handles to every provider of a `many` contract. */
  useAll<T>(contract: Contract<T>): ManyHandle<T> {
    return this.handles.useAll(contract);
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
      const waits = [...this.records.values()].flatMap((r) => r.waiting?.result ?? []);
      if (waits.length === 0 && !this.queue.busy) return;
      await Promise.all(waits);
    }
  }

  /** A read-only view of every plugin record, in distribution order, and the bus's listeners: hosts build their reports from it. */
  snapshot(): KernelSnapshot {
    const plugins = [...this.records.values()].map((r) => ({
      ...r,
      active: r.active,
      live: [r.active, r.retiring, r.waiting?.next].filter((g) => g !== undefined).length,
    }));
    return { plugins, listeners: this.bus.listeners };
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
        const waiting = this.cycle.dropWaiting(record);
        const number = waiting?.next?.number ?? record.active?.number ?? 0;
        const stopped = lifecycleError(record.id, "gate", number, new Error("the kernel is shutting down"));
        waiting?.settle?.({ pluginId: record.id, status: "aborted", generation: number, error: stopped });
        await this.cycle.retireActive(record);
      }
    });
  }

  // ── boot ──────────────────────────────────────────────────────────────────────────────────────

  private async bootNow(entries: PluginEntry[]): Promise<BootResult> {
    const result: BootResult = { ok: true, configErrors: [], errors: [] };
    for (const entry of entries) this.records.set(entry.id, newRecord(entry));
    const loaded: Array<LoadedPlugin & { record: PluginRecord }> = [];
    for (const record of this.records.values()) {
      if (!record.enabled) continue;
      const number = record.nextGeneration++;
      try {
        loaded.push({ record, ...(await this.load(record.id, record.source, number)) });
      } catch (error) {
        result.errors.push(this.fail(record, "load", number, error));
      }
    }
    for (const item of loaded) {
      try {
        this.validateConfig(item.definition.config, item.record.config);
      } catch (error) {
        result.configErrors.push({ pluginId: item.record.id, error: error as Error });
      }
    }
    if (result.configErrors.length > 0) return { ...result, ok: false };

    const prepared: Generation[] = [];
    for (const item of loaded) {
      const { record } = item;
      const number = record.nextGeneration - 1;
      try {
        const offers = { offers: prepared.flatMap(offersOf), needs: [] };
        prepared.push(await this.prepareNext(record, item, record, number, offers));
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
          checkNeeds(needsOf(gen), prepared.flatMap(offersOf));
        } catch (error) {
          prepared.splice(prepared.indexOf(gen), 1);
          gen.discard();
          result.errors.push(this.fail(this.records.get(gen.pluginId)!, "prepare", gen.number, error));
          changed = true;
        }
      }
    }
    for (const gen of prepared) {
      const record = this.records.get(gen.pluginId)!;
      try {
        this.cycle.initialState(gen);
        await this.cycle.phase(record.id, "commit", gen.number);
        this.cycle.commit(record, undefined, gen);
      } catch (error) {
        gen.discard();
        result.errors.push(this.fail(record, "commit", gen.number, error));
      }
    }
    try {
      checkNeeds(this.hostNeeds, this.live().flatMap(offersOf));
    } catch (error) {
      result.errors.push(this.cycle.report(lifecycleError("host", "boot", 0, error)));
      result.ok = false;
    }
    await Promise.all(prepared.map((gen) => this.cycle.runStartHooks(gen)));
    return result;
  }

  // ── one change to one plugin: from request to transition ──────────────────────────────────────

  /**
   * Queues a change to one plugin. A request that finds one still waiting merges into it, later fields
   * winning, so a burst of saves is one reload and no requested source, config or on/off is dropped.
   */
  private request(pluginId: string, change: Change): Promise<OperationResult> {
    this.pending.set(pluginId, over(this.pending.get(pluginId) ?? {}, change));
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
      const unknown = new Error(`no plugin "${pluginId}" in the distribution`);
      return { pluginId, status: "aborted", error: this.cycle.report(lifecycleError(pluginId, "load", 0, unknown)) };
    }
    if (this.shuttingDown) {
      const stopped = new Error("the kernel is shutting down");
      return { pluginId, status: "aborted", error: lifecycleError(pluginId, "load", 0, stopped) };
    }
    // A newer request supersedes a reload waiting for its safe point: it starts from what that one asked
    // for (so no requested source or config is dropped), and a caller still waiting gets this outcome.
    const { source, config, enabled } = record.waiting?.requested ?? record;
    const base: Requested = { source, config, enabled };
    const superseded = this.cycle.dropWaiting(record);
    const outcome = await this.applyChange(record, change, over(base, change));
    if (superseded?.settle !== undefined) void settledResult(outcome).then(superseded.settle);
    return outcome;
  }

  /** Turns the plugin off, or loads and prepares its next generation, then hands over to the transition. */
  private async applyChange(record: PluginRecord, change: Change, requested: Requested): Promise<ChangeOutcome> {
    const { id: pluginId, active } = record;
    const { source, config } = requested;
    if (!requested.enabled) {
      const blocker = active !== undefined ? this.removalBlocker(pluginId) : undefined;
      if (active !== undefined && blocker !== undefined)
        return this.cycle.abort(pluginId, "prepare", active.number, blocker);
      Object.assign(record, { enabled: false, source, config });
      if (active === undefined) return { pluginId, status: "noop" };
      return this.cycle.transition(record, undefined, requested);
    }
    // A plain reload of a source whose content hash (the host's) is unchanged has nothing to do.
    if (active !== undefined && change.source === undefined && change.config === undefined) {
      const hash = await this.options.sourceHash?.(source);
      if (hash !== undefined && hash === active.source.hash)
        return { pluginId, status: "noop", generation: active.number };
    }
    const number = record.nextGeneration++;
    let next: Generation;
    let phase: Phase = "load";
    try {
      const loaded = await this.load(pluginId, source, number);
      phase = "prepare";
      const others = this.othersThan(pluginId);
      next = await this.prepareNext(record, loaded, requested, number, others);
      try {
        checkNeeds(needsOf(next), [...others.offers, ...offersOf(next)]);
      } catch (error) {
        next.discard();
        throw error;
      }
    } catch (error) {
      return this.cycle.abort(pluginId, phase, number, error);
    }
    return this.cycle.transition(record, next, requested);
  }

  // ── load and prepare: one path for boot and for a change ──────────────────────────────────────

  /** The load phase: an inline definition as it is, any other source through the host's `loadSource`. */
  private async load(pluginId: string, source: PluginSource, number: number): Promise<LoadedPlugin> {
    await this.cycle.phase(pluginId, "load", number);
    if (source.kind === "inline") return { definition: source.definition, hash: undefined };
    if (this.options.loadSource === undefined) throw new Error(`no loader for a "${source.kind}" source`);
    return this.options.loadSource(source);
  }

  /**
   * The prepare phase: offers checked against the plugins that stay live, config validated (at boot a second
   * time: the check is pure), setup run in declare mode. Throws on any problem; changes nothing.
   */
  private async prepareNext(
    record: PluginRecord,
    loaded: LoadedPlugin,
    requested: { source: PluginSource; config: unknown },
    number: number,
    others: { offers: Offer[]; needs: Need[] },
  ): Promise<Generation> {
    await this.cycle.phase(record.id, "prepare", number);
    checkOffers(record.id, offersOf({ pluginId: record.id, ...loaded }), others.offers, others.needs);
    const origin = { entry: requested.source, config: requested.config, hash: loaded.hash };
    const config = this.validateConfig(loaded.definition.config, requested.config);
    return prepare(this.host, record.id, loaded.definition, origin, config, number);
  }

  // ── who else is live ──────────────────────────────────────────────────────────────────────────

  /** Offers and needs of every live plugin except `pluginId`, plus the host's needs. */
  private othersThan(pluginId: string): { offers: Offer[]; needs: Need[] } {
    const gens = this.live(pluginId);
    return { offers: gens.flatMap(offersOf), needs: [...this.hostNeeds, ...gens.flatMap(needsOf)] };
  }

  /** The active generations of every plugin but `except`. */
  private live(except?: string): Generation[] {
    return [...this.records.values()].flatMap((r) => (r.id !== except && r.active ? [r.active] : []));
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
    return this.cycle.report(lifecycleError(record.id, phase, number, cause));
  }
}

/** `change` over `base`: every field the change names wins (`config` may be any value but undefined). */
function over<T extends Change>(base: T, change: Change): T {
  return { ...base, ...Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) };
}
