/**
 * The context a plugin's setup receives. Everything a plugin does to the world goes through it, so the
 * kernel can own it: effects start at commit and are undone at retire, and a retired generation's
 * context refuses every use with StaleGenerationError.
 */
import type { TSchema } from "@sinclair/typebox";
import type { DependencyContainer } from "tsyringe";
import type { Contract } from "./contract.js";
import { ContractError, DeclareOnlyError, StaleGenerationError } from "./errors.js";
import type { EventBus, EventKey, EventToken } from "./events.js";
import type { Disposer, Generation } from "./generation.js";
import type { Handle, ManyHandle } from "./handles.js";
import { requiresOf } from "./plugin.js";
import { recordProvide } from "./provide.js";
import type { HandleRegistry } from "./registry.js";
import { safePoint, type MovedCall, type ReloadWaits } from "./safe-point.js";

/** What a class provider's constructor may inject besides contract handles. */
export const PluginTokens = {
  Context: "pi-host:plugin-context",
  Config: "pi-host:plugin-config",
} as const;

/** A class whose constructor parameters are all marked with `@inject(token)`. */
export type InjectableClass<T> = new (...args: any[]) => T;

/** Options for `provide`. */
export interface ProvideOptions {
  /** Distinguishes several providers of one `many` contract from one plugin (e.g. tool names). */
  key?: string;
}

/** The services the kernel lends to a plugin generation. */
export interface PluginContext<C = unknown, S = unknown> {
  readonly pluginId: string;
  readonly generation: number;
  /** The entry's config, validated by the host against the plugin's schema with defaults filled in. */
  readonly config: C;
  /** Aborted when this generation retires; pass it to long-running work. */
  readonly signal: AbortSignal;
  /** This generation's child DI container. */
  readonly container: DependencyContainer;
  /** Offers an implementation of a contract listed in `provides`: an object, or a class built by DI. */
  provide<T>(contract: Contract<T>, implementation: T | InjectableClass<T>, options?: ProvideOptions): void;
  /** A stable handle to the provider of a `single` contract. */
  use<T>(contract: Contract<T>): Handle<T>;
  /** Stable handles to every provider of a `many` contract. */
  useAll<T>(contract: Contract<T>): ManyHandle<T>;
  /** Listens to a bus event; only the active generation's handlers hear events. A typed event types the payload. */
  on<T>(event: EventToken<T>, handler: (payload: T) => void): void;
  on(event: string, handler: (payload: any) => void): void;
  /** Emits a bus event (not from setup). A typed event checks the payload. */
  emit<T>(event: EventToken<T>, payload: T): void;
  emit(event: string, payload?: unknown): void;
  /** This plugin's state, carried across reloads by `state.migrate`. */
  getState(): S;
  setState(next: S): void;
  /** A generic owned effect: `start` runs at commit and returns its disposer. */
  effect(name: string, start: () => Disposer | void): void;
  /**
   * Owns something already running (not from setup): `dispose` ends it at retire. Returns the function to
   * call when it ended by itself. Timers, child processes and watchers build on this (kit/process/owned.ts).
   */
  own(name: string, dispose: Disposer): () => void;
  /** Runs after this generation is committed; the place for I/O at start-up. */
  onStart(hook: () => void | Promise<void>): void;
  /** Runs at retire, in reverse order of registration. */
  onDispose(dispose: Disposer, name?: string): void;
  /**
   * Between two steps of a long call: undefined (go on), or, while a reload of this plugin waits, the
   * outcome to return at once after parking the call's work in the state; the handle then carries the
   * call on with `method(...args)` on the next generation (safe-point.ts).
   */
  safePoint(method: string, ...args: unknown[]): MovedCall | undefined;
}

/** What the context needs from the kernel. */
export interface ContextHost {
  handles: HandleRegistry;
  bus: EventBus;
  countStaleUse(): void;
  /** The host's state check (KernelOptions.checkState); without one state is not checked. */
  checkState: ((schema: TSchema, value: unknown) => void) | undefined;
  /** Whether a reload of a generation's plugin waits for a safe point (safe-point.ts). */
  reloadWaits: ReloadWaits;
}

/** Builds the context for one generation. */
export function createContext(
  gen: Generation,
  host: ContextHost,
  container: DependencyContainer,
): PluginContext<any, any> {
  // `owns`: the member starts an effect, which nothing could undo once this generation's disposal began.
  const alive = (member: string, owns = false): void => {
    if (gen.status === "retired" || gen.status === "discarded" || (owns && gen.abort.signal.aborted)) {
      host.countStaleUse();
      throw new StaleGenerationError(gen.pluginId, gen.number, member);
    }
  };
  // A plugin reaches only the contracts it lists in `requires`; during setup the refusal fails prepare.
  const required = new Set(requiresOf(gen.definition).map((need) => need.contract.id));
  const declared = (contract: Contract<any>, member: string): void => {
    alive(member);
    if (required.has(contract.id)) return;
    throw new ContractError(
      `plugin "${gen.pluginId}" calls ctx.${member}("${contract.id}") but does not list "${contract.id}" in requires`,
    );
  };
  const acting = (member: string, owns = false): void => {
    alive(member, owns);
    if (gen.status === "preparing") throw new DeclareOnlyError(gen.pluginId, `it called ctx.${member}()`);
  };
  // An effect owned by this generation: started at commit (at once when already active), undone at retire.
  const owned = (member: string, name: string, start: () => Disposer | void): void => {
    alive(member, true);
    gen.addEffect({ name, start });
  };
  return {
    pluginId: gen.pluginId,
    generation: gen.number,
    config: gen.config,
    signal: gen.abort.signal,
    container,
    provide(contract, implementation, options) {
      alive("provide");
      if (gen.status !== "preparing") throw new Error(`plugin "${gen.pluginId}": provide() is only allowed in setup`);
      recordProvide(gen, contract, implementation, options?.key);
    },
    use(contract) {
      declared(contract, "use");
      return host.handles.use(contract);
    },
    useAll(contract) {
      declared(contract, "useAll");
      return host.handles.useAll(contract);
    },
    on(event: EventKey, handler: (payload: any) => void) {
      owned("on", `on:${typeof event === "string" ? event : event.name}`, () => host.bus.add(event, handler, gen));
    },
    emit(event: EventKey, payload?: unknown) {
      acting("emit");
      host.bus.emit(event, payload);
    },
    getState() {
      alive("getState");
      return gen.state;
    },
    setState(next) {
      alive("setState");
      if (gen.definition.state) host.checkState?.(gen.definition.state.schema, next);
      gen.state = next;
    },
    effect(name, start) {
      owned("effect", name, start);
    },
    own(name, dispose) {
      acting("own", true);
      return gen.own(name, dispose);
    },
    onStart(hook) {
      alive("onStart", true);
      gen.addStartHook(hook);
    },
    onDispose(dispose, name = "onDispose") {
      owned("onDispose", name, () => dispose);
    },
    safePoint(method, ...args) {
      alive("safePoint");
      return safePoint(gen, host.reloadWaits, method, args);
    },
  };
}
