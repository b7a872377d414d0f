/**
 * Stable handles. Consumers never hold a provider; they hold a handle whose identity survives every
 * reload. Each call is admitted by the generation bound at that moment and finishes there, so a reload
 * never tears a call in half; commit re-points the handle for the calls that come after.
 */
import type { Contract, MethodKeys } from "./contract.js";
import { DeclareOnlyError, HandleHeldError } from "./errors.js";
import type { Generation } from "./generation.js";
import { carryOn } from "./safe-point.js";

/** Kernel facts a handle needs: which generation is declaring right now (none outside setup). */
export interface HandleRuntime {
  declaring: Generation | undefined;
}

/** A provider value bound to the generation that offers it. */
export interface Binding {
  value: unknown;
  version: string;
  gen: Generation;
}

/** The typed view of a handle: one forwarding method per method of the contract. */
export type ContractApi<T> = { readonly [K in MethodKeys<T>]-?: NonNullable<T[K]> };

/** Holds one generation's provider for a stretch of work (a turn, a stream); release when done. */
export interface Lease<T> {
  readonly value: T;
  readonly pluginId: string;
  readonly generation: number;
  release(): void;
}

/** Thrown when a handle is used while no plugin provides its contract. */
export class NoProviderError extends Error {
  constructor(contractId: string) {
    super(`no plugin provides "${contractId}"; enable one in plugins.json`);
    this.name = "NoProviderError";
  }
}

/** A stable handle to one provider slot of a contract. */
export class Handle<T> {
  /** The binding that admits new work, or undefined when nobody provides the slot. */
  binding: Binding | undefined = undefined;
  /** Set while a boundary gate holds new work back: the resolvers of the waiting calls. */
  private held: Array<() => void> | undefined = undefined;
  /**
   * Typed calls: `handle.api.appendMessage(m)`. A plain object built once, with one forwarder per listed
   * method; each forwarder pins the current generation exactly as `call` does.
   */
  readonly api: ContractApi<T>;

  constructor(
    readonly contract: Contract<T>,
    readonly key: string,
    private readonly runtime: HandleRuntime,
  ) {
    const api: Record<string, (...args: unknown[]) => unknown> = {};
    for (const [method, mode] of Object.entries(contract.methods)) {
      api[method] =
        mode === "sync" ? (...args) => this.invokeSync(method, args) : (...args) => this.invoke(method, args);
    }
    this.api = Object.freeze(api) as unknown as ContractApi<T>;
  }

  /** Whether a provider is bound. */
  get available(): boolean {
    return this.binding !== undefined;
  }

  /** The generation that new calls go to, for display. */
  get generation(): number | undefined {
    return this.binding?.gen.number;
  }

  /** The plugin that new calls go to, for display. */
  get pluginId(): string | undefined {
    return this.binding?.gen.pluginId;
  }

  /** Calls `method` on the current provider, pinned to its generation until the result settles. */
  call<K extends MethodKeys<T>>(
    method: K,
    ...args: NonNullable<T[K]> extends (...a: infer A) => any ? A : never
  ): NonNullable<T[K]> extends (...a: any[]) => infer R ? R : never {
    return this.invoke(method as string, args);
  }

  /** A sync method: while a gate holds the handle it cannot wait, so it fails typed instead. */
  private invokeSync(method: string, args: unknown[]): any {
    if (this.held !== undefined && this.runtime.declaring === undefined)
      throw new HandleHeldError(this.contract.id, method);
    return this.invoke(method, args);
  }

  /** Admits one call, pins its generation until the result settles; held calls wait for the release. */
  private invoke(method: string, args: unknown[]): any {
    const binding = this.admit(method);
    if (binding === undefined) return this.later().then(() => this.invoke(method, args));
    const gen = binding.gen;
    gen.enter();
    let result: any;
    try {
      result = (binding.value as any)[method](...args);
    } catch (error) {
      gen.exit();
      throw error;
    }
    if (result !== null && typeof result === "object" && typeof result.then === "function") {
      return result.then(
        (value: unknown) => {
          gen.exit();
          // A call moved at a safe point (safe-point.ts) goes on where new calls go now.
          return carryOn(value, (next, nextArgs) => this.invoke(next, nextArgs));
        },
        (error: unknown) => {
          gen.exit();
          throw error;
        },
      );
    }
    gen.exit();
    return result;
  }

  /** Pins the current provider for a stretch of work (a stream, a turn): it cannot retire until released. */
  async acquire(): Promise<Lease<T>> {
    let binding: Binding | undefined;
    while ((binding = this.admit("acquire")) === undefined) await this.later();
    const gen = binding.gen;
    gen.enter();
    let released = false;
    return {
      value: binding.value as T,
      pluginId: gen.pluginId,
      generation: gen.number,
      release: () => {
        if (released) return;
        released = true;
        gen.exit();
      },
    };
  }

  /** The current provider without pinning it; for inspection only. */
  peek(): T | undefined {
    return this.binding?.value as T | undefined;
  }

  /** Holds new work back (boundary gate). Idempotent. */
  hold(): void {
    this.held ??= [];
  }

  /** Lets held work through, to whatever binding is current now. */
  release(): void {
    const held = this.held;
    this.held = undefined;
    for (const wake of held ?? []) wake();
  }

  /** Whether a gate currently holds new work. */
  get holding(): boolean {
    return this.held !== undefined;
  }

  private admit(member: string): Binding | undefined {
    const declaring = this.runtime.declaring;
    if (declaring !== undefined)
      throw new DeclareOnlyError(declaring.pluginId, `it used "${this.contract.id}" (${member})`);
    if (this.held !== undefined) return undefined;
    if (this.binding === undefined) throw new NoProviderError(this.contract.id);
    return this.binding;
  }

  private later(): Promise<void> {
    return new Promise((resolve) => {
      if (this.held === undefined) resolve();
      else this.held.push(resolve);
    });
  }
}

/** All providers of a `many` contract, in distribution order; each one a stable handle. */
export class ManyHandle<T> {
  private readonly slots = new Map<string, Handle<T>>();

  constructor(
    readonly contract: Contract<T>,
    private readonly runtime: HandleRuntime,
  ) {}

  /** The slot for `key`, created on first use so its identity is stable from then on. */
  slot(key: string): Handle<T> {
    let handle = this.slots.get(key);
    if (handle === undefined) {
      handle = new Handle(this.contract, key, this.runtime);
      this.slots.set(key, handle);
    }
    return handle;
  }

  /** The slots that have a provider right now. */
  list(): Array<Handle<T>> {
    return [...this.slots.values()].filter((h) => h.available);
  }

  /**
   * The first slot with a provider that was provided under `key` (a tool's name, a provider's wire api),
   * in distribution order. Slots are keyed `<pluginId>#<key>`, so two plugins may offer the same key.
   */
  find(key: string): Handle<T> | undefined {
    return this.list().find((h) => h.key.slice(h.key.indexOf("#") + 1) === key);
  }

  /** Leases every current provider at once: a consistent snapshot for one turn. */
  async acquireAll(): Promise<Array<Lease<T>>> {
    return Promise.all(this.list().map((h) => h.acquire()));
  }
}
