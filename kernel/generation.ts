/**
 * One loaded version of one plugin. A generation owns everything its setup declared and everything its
 * code started while active; retiring it undoes all of that and lets the garbage collector have it.
 */
import type { DependencyContainer } from "tsyringe";
import type { Contract } from "./contract.js";
import type { PluginSource } from "./loader.js";
import type { PluginDefinition } from "./plugin.js";

/** Undoes one effect. May be async; the kernel bounds how long it waits. */
export type Disposer = () => void | Promise<void>;

/** An effect: started at commit (or at once, when declared by an active generation), disposed at retire. */
export interface Effect {
  name: string;
  start: () => Disposer | void;
}

/** preparing → active → retiring → retired; `discarded` when prepare or gate aborted the reload. */
export type GenerationStatus = "preparing" | "active" | "retiring" | "retired" | "discarded";

/** One provider value a generation offers for a contract, under a key unique within the plugin. */
export interface Provided {
  contract: Contract<any>;
  key: string;
  version: string;
  value: unknown;
}

/** What a generation came from: the entry's source and raw config (the plugin's own once it commits), and a content hash. */
export interface GenerationSource {
  entry: PluginSource;
  config: unknown;
  hash: string | undefined;
}

/** Tracks one generation: status, admitted work, owned effects, provided values and state. */
export class Generation {
  status: GenerationStatus = "preparing";
  /** Calls and leases admitted and not yet finished. */
  inFlight = 0;
  provided: Provided[] = [];
  state: unknown = undefined;
  /** This generation's child DI container; dropped at retire. */
  container: DependencyContainer | undefined = undefined;
  readonly abort = new AbortController();
  private declared: Effect[] = [];
  private disposers: Array<{ name: string; dispose: Disposer }> = [];
  private startHooks: Array<() => void | Promise<void>> = [];
  private idleWaiters: Array<() => void> = [];

  constructor(
    readonly pluginId: string,
    readonly number: number,
    readonly definition: PluginDefinition<any, any>,
    readonly config: unknown,
    readonly source: GenerationSource,
  ) {}

  /** Admits one unit of work. */
  enter(): void {
    this.inFlight++;
  }

  /** Finishes one unit of work; the last one wakes whoever waits for a safe point. */
  exit(): void {
    this.inFlight--;
    if (this.inFlight === 0 && this.idleWaiters.length > 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Calls `wake` the next time no admitted work is running (at once if none is). */
  onIdle(wake: () => void): () => void {
    if (this.inFlight === 0) {
      wake();
      return () => {};
    }
    this.idleWaiters.push(wake);
    return () => {
      this.idleWaiters = this.idleWaiters.filter((w) => w !== wake);
    };
  }

  /** Resolves true as soon as no admitted work is running, or false after `ms`. */
  idleWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const cancel = this.onIdle(() => {
        clearTimeout(timer);
        resolve(true);
      });
      if (this.inFlight === 0) return;
      timer = setTimeout(() => {
        cancel();
        resolve(false);
      }, ms);
    });
  }

  /** Records an effect: started now if the generation is active, else at commit. */
  addEffect(effect: Effect): void {
    if (this.status === "preparing") this.declared.push(effect);
    else this.start(effect);
  }

  /** Records a disposer for something already running; returns a function that forgets it (it ended). */
  own(name: string, dispose: Disposer): () => void {
    const entry = { name, dispose };
    this.disposers.push(entry);
    return () => {
      this.disposers = this.disposers.filter((d) => d !== entry);
    };
  }

  /** Queues a hook that runs right after this generation is committed. */
  addStartHook(hook: () => void | Promise<void>): void {
    this.startHooks.push(hook);
  }

  /** Starts every declared effect; on a failure, undoes the ones already started and rethrows. */
  activateEffects(): void {
    const declared = this.declared;
    this.declared = [];
    for (const effect of declared) {
      try {
        this.start(effect);
      } catch (error) {
        for (const started of this.disposers.splice(0).reverse()) {
          try {
            void started.dispose();
          } catch {
            // best effort while rolling back a failed commit
          }
        }
        throw new Error(`effect "${effect.name}" failed to start: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  /** Takes the start hooks, leaving none behind. */
  takeStartHooks(): Array<() => void | Promise<void>> {
    return this.startHooks.splice(0);
  }

  /**
   * Disposes effects in reverse order, each bounded by `timeoutMs`; a disposer that throws or hangs is
   * reported through `onError` and the rest still run.
   */
  async disposeEffects(timeoutMs: number, onError: (error: Error) => void): Promise<void> {
    this.abort.abort();
    const disposers = this.disposers.reverse();
    this.disposers = [];
    for (const { name, dispose } of disposers) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      });
      try {
        const outcome = await Promise.race([Promise.resolve().then(dispose), timedOut]);
        if (outcome === "timeout")
          onError(new Error(`disposer "${name}" did not finish within ${timeoutMs} ms; cut off`));
      } catch (error) {
        onError(new Error(`disposer "${name}" threw: ${(error as Error).message}`, { cause: error }));
      } finally {
        clearTimeout(timer);
      }
    }
  }

  private start(effect: Effect): void {
    const dispose = effect.start();
    if (dispose) this.disposers.push({ name: effect.name, dispose });
  }

  /** Drops a generation that never went live. */
  discard(): void {
    this.status = "discarded";
    this.release();
  }

  /** Drops every reference the generation holds, so nothing it made stays reachable through it. */
  release(): void {
    this.provided = [];
    this.declared = [];
    this.startHooks = [];
    this.idleWaiters = [];
    this.state = undefined;
    this.container = undefined;
  }
}
