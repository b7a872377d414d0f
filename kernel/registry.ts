/**
 * Every stable handle the kernel has handed out, one per `single` contract and one slot per provider of a
 * `many` contract. Commit points a generation's slots at its values, retire points them at nothing, and a
 * boundary gate holds them; the handles themselves never change identity.
 */
import type { DependencyContainer } from "tsyringe";
import type { Contract } from "./contract.js";
import type { Generation } from "./generation.js";
import { Handle, type HandleRuntime, ManyHandle } from "./handles.js";

/** The kernel's handles, registered in its root container under each contract's token. */
export class HandleRegistry {
  /** Which generation is declaring right now; every handle reads it to refuse calls from setup. */
  readonly runtime: HandleRuntime = { declaring: undefined };
  private readonly singles = new Map<string, Handle<any>>();
  private readonly manys = new Map<string, ManyHandle<any>>();

  constructor(private readonly root: DependencyContainer) {}

  /** The stable handle to the provider of a `single` contract, created on first use. */
  use<T>(contract: Contract<T>): Handle<T> {
    if (contract.kind !== "single") throw new Error(`"${contract.id}" takes many providers; use useAll()`);
    return this.created(this.singles, contract, () => new Handle(contract, contract.id, this.runtime)) as Handle<T>;
  }

  /** The stable handles to every provider of a `many` contract, created on first use. */
  useAll<T>(contract: Contract<T>): ManyHandle<T> {
    if (contract.kind !== "many") throw new Error(`"${contract.id}" takes a single provider; use use()`);
    return this.created(this.manys, contract, () => new ManyHandle(contract, this.runtime)) as ManyHandle<T>;
  }

  /** Points every slot of `gen`'s provided values at them: the re-pointing half of commit. */
  bind(gen: Generation): void {
    for (const p of gen.provided)
      this.slotOf(gen.pluginId, p.contract, p.key).binding = { value: p.value, version: p.version, gen };
  }

  /** Points every handle bound to `gen` at nothing. */
  unbind(gen: Generation): void {
    for (const p of gen.provided) {
      const slot = this.slotOf(gen.pluginId, p.contract, p.key);
      if (slot.binding?.gen === gen) slot.binding = undefined;
    }
  }

  /** The slots of `gen`'s stateful (`boundary`) contracts: the ones a reload's gate holds. */
  boundaryHandles(gen: Generation): Array<Handle<any>> {
    return gen.provided
      .filter((p) => p.contract.gate === "boundary")
      .map((p) => this.slotOf(gen.pluginId, p.contract, p.key));
  }

  /** Lets held work through on every slot of `gen`. */
  releaseHolds(gen: Generation | undefined): void {
    if (gen === undefined) return;
    for (const p of gen.provided) this.slotOf(gen.pluginId, p.contract, p.key).release();
  }

  private slotOf(pluginId: string, contract: Contract<any>, key: string): Handle<any> {
    return contract.kind === "single" ? this.use(contract) : this.useAll(contract).slot(`${pluginId}#${key}`);
  }

  private created<H>(map: Map<string, H>, contract: Contract<any>, make: () => H): H {
    let handle = map.get(contract.id);
    if (handle === undefined) {
      handle = make();
      map.set(contract.id, handle);
      this.root.register(contract.token, { useValue: handle });
    }
    return handle;
  }
}
