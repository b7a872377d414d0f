/**
 * State crosses versions through `state.migrate(previous, fromVersion)`: it runs exactly once per
 * reload, with the previous generation's state and state version, and the new generation sees the
 * result through ctx.getState().
 */
import { describe, expect, it, vi } from "vitest";
import { Type } from "@sinclair/typebox";
import { defineContract, definePlugin, type StateSpec } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { inline, record } from "./helpers.js";

interface Counter {
  bump(): void;
  state(): unknown;
}
const CounterC = defineContract<Counter>({
  id: "test/counter",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { bump: "function", state: "function" },
  methods: { bump: "sync", state: "sync" },
});
const BoundaryCounterC = defineContract<Counter>({
  id: "test/boundary-counter",
  version: "1.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 30,
  shape: { bump: "function", state: "function" },
  methods: { bump: "sync", state: "sync" },
});

interface V1 {
  count: number;
}
interface V2 {
  total: number;
  history: string[];
}

const v1State: StateSpec<V1> = {
  version: 1,
  schema: Type.Object({ count: Type.Number() }),
  initial: () => ({ count: 0 }),
};

function counter<S>(state: StateSpec<S>, bump: (s: S) => S, contract = CounterC) {
  return definePlugin({
    id: "counter",
    version: "1.0.0",
    provides: [contract],
    state,
    setup(ctx) {
      ctx.provide(contract, {
        bump: () => ctx.setState(bump(ctx.getState())),
        state: () => ctx.getState(),
      });
    },
  });
}

function v2State(migrate: (previous: unknown, from: number) => V2): StateSpec<V2> {
  return {
    version: 2,
    schema: Type.Object({ total: Type.Number(), history: Type.Array(Type.String()) }),
    initial: () => ({ total: 0, history: [] }),
    migrate,
  };
}

const bumpV1 = (s: V1): V1 => ({ count: s.count + 1 });
const bumpV2 = (s: V2): V2 => ({ total: s.total + 1, history: [...s.history, "bump"] });

describe("state migration", () => {
  it("runs once per reload with the previous state and version; the new generation sees the result", async () => {
    const kernel = new Kernel();
    await kernel.boot([{ id: "counter", source: inline(counter(v1State, bumpV1), "v1") }]);
    const handle = kernel.use(CounterC);
    for (let i = 0; i < 3; i++) handle.call("bump");
    expect(handle.call("state")).toEqual({ count: 3 });

    const toV2 = vi.fn(
      (previous: unknown, from: number): V2 => ({ total: (previous as V1).count, history: [`from v${from}`] }),
    );
    expect((await kernel.reload("counter", { source: inline(counter(v2State(toV2), bumpV2), "v2") })).status).toBe(
      "committed",
    );
    expect(toV2).toHaveBeenCalledTimes(1);
    expect(toV2).toHaveBeenCalledWith({ count: 3 }, 1);
    expect(handle.call("state")).toEqual({ total: 3, history: ["from v1"] });

    handle.call("bump");
    const toV2Again = vi.fn((previous: unknown, from: number): V2 => {
      const p = previous as V2;
      return { total: p.total * 10, history: [...p.history, `from v${from}`] };
    });
    expect(
      (await kernel.reload("counter", { source: inline(counter(v2State(toV2Again), bumpV2), "v2b") })).status,
    ).toBe("committed");
    expect(toV2).toHaveBeenCalledTimes(1);
    expect(toV2Again).toHaveBeenCalledTimes(1);
    expect(toV2Again).toHaveBeenCalledWith({ total: 4, history: ["from v1", "bump"] }, 2);
    expect(handle.call("state")).toEqual({ total: 40, history: ["from v1", "bump", "from v2"] });
  });

  it("runs exactly once for each of many reloads", async () => {
    const kernel = new Kernel();
    const migrate = vi.fn((previous: unknown, from: number): V2 => {
      const p = previous as V2;
      return { total: p.total + 1, history: [...p.history, `from ${from}`] };
    });
    await kernel.boot([{ id: "counter", source: inline(counter(v2State(migrate), bumpV2), "v") }]);
    for (let i = 0; i < 10; i++) {
      expect(
        (await kernel.reload("counter", { source: inline(counter(v2State(migrate), bumpV2), `v${i}`) })).status,
      ).toBe("committed");
    }
    expect(migrate).toHaveBeenCalledTimes(10);
    expect(kernel.use(CounterC).call("state")).toEqual({
      total: 10,
      history: Array.from({ length: 10 }, () => "from 2"),
    });
  });

  it("hands migrate a copy: mutating it and then throwing leaves the old state intact", async () => {
    const kernel = new Kernel();
    await kernel.boot([{ id: "counter", source: inline(counter(v1State, bumpV1), "v1") }]);
    const handle = kernel.use(CounterC);
    handle.call("bump");
    const migrate = vi.fn((previous: unknown): V2 => {
      (previous as V1).count = 999;
      throw new Error("half-way");
    });
    const result = await kernel.reload("counter", { source: inline(counter(v2State(migrate), bumpV2), "v2") });
    expect(result.status).toBe("aborted");
    expect(migrate).toHaveBeenCalledTimes(1);
    expect(handle.call("state")).toEqual({ count: 1 });
  });

  it("runs once for a deferred boundary reload, on the state at the safe point", async () => {
    const kernel = new Kernel();
    await kernel.boot([{ id: "counter", source: inline(counter(v1State, bumpV1, BoundaryCounterC), "v1") }]);
    const handle = kernel.use(BoundaryCounterC);
    const lease = await handle.acquire();
    const migrate = vi.fn(
      (previous: unknown, from: number): V2 => ({ total: (previous as V1).count, history: [`from v${from}`] }),
    );

    const result = await kernel.reload("counter", {
      source: inline(counter(v2State(migrate), bumpV2, BoundaryCounterC), "v2"),
    });
    expect(result.status).toBe("deferred");
    expect(migrate).not.toHaveBeenCalled();

    // The old generation keeps working while the reload waits; its latest state is what migrates.
    lease.value.bump();
    lease.value.bump();
    const committed = record(kernel, "kernel:commit").next();
    lease.release();
    await committed;
    await kernel.idle();
    expect(migrate).toHaveBeenCalledTimes(1);
    expect(migrate).toHaveBeenCalledWith({ count: 2 }, 1);
    expect(handle.call("state")).toEqual({ total: 2, history: ["from v1"] });
  });
});
