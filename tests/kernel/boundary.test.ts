/**
 * A `boundary` contract swaps only at a safe point: while a lease is held the reload waits at the gate
 * and new work is held back; releasing the lease lets it commit and the held work runs on the new
 * generation. Past the contract's deadline the reload is deferred — the held work is never interrupted —
 * and the deferred reload is applied at the next safe point.
 */
import { describe, expect, it } from "vitest";
import { defineContract, definePlugin, StaleGenerationError } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { flush, inline, Phases, record, track } from "./helpers.js";

interface Loop {
  turn(id: number): string;
}
/** A gate deadline long enough that only releasing the lease can open it. */
const LoopC = defineContract<Loop>({
  id: "test/loop",
  version: "1.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 60_000,
  shape: { turn: "function" },
  methods: { turn: "sync" },
});
/** A short deadline, because here the point is the deadline. */
const QuickLoopC = defineContract<Loop>({
  id: "test/quick-loop",
  version: "1.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 30,
  shape: { turn: "function" },
  methods: { turn: "sync" },
});

interface Life {
  disposed: string[];
  turns: string[];
}

function loop(contract: typeof LoopC, marker: string, life: Life) {
  return definePlugin({
    id: "loop",
    version: "1.0.0",
    provides: [contract],
    setup(ctx) {
      ctx.onDispose(() => void life.disposed.push(marker));
      ctx.provide(contract, {
        turn(id: number) {
          if (ctx.signal.aborted) throw new Error(`${marker} was interrupted`);
          life.turns.push(`${marker}:${id}`);
          return `${marker}:${id}`;
        },
      });
    },
  });
}

describe("boundary gate", () => {
  it("waits at the gate while a lease is held, holds new work, and commits when it is released", async () => {
    const phases = new Phases();
    const kernel = new Kernel({ phaseHook: phases.hook });
    const life: Life = { disposed: [], turns: [] };
    await kernel.boot([{ id: "loop", source: inline(loop(LoopC, "v1", life), "v1") }]);
    const handle = kernel.use(LoopC);
    const commits = record(kernel, "kernel:commit");
    const deferrals = record(kernel, "kernel:deferred");

    const lease = await handle.acquire();
    expect(lease.generation).toBe(1);

    const atGate = phases.pause("loop", "gate", 2);
    const reload = track(kernel.reload("loop", { source: inline(loop(LoopC, "v2", life), "v2") }));
    await atGate.reached;
    expect(handle.holding).toBe(false);
    atGate.resume();
    await flush();

    // At the gate: new work is held back, the reload has not committed, the lease keeps working on v1.
    expect(handle.holding).toBe(true);
    expect(reload.settled).toBe(false);
    expect(commits.all).toEqual([]);
    const heldCall = track(Promise.resolve(handle.call("turn", 7)));
    const heldLease = track(handle.acquire());
    expect(lease.value.turn(1)).toBe("v1:1");
    await flush();
    expect(heldCall.settled).toBe(false);
    expect(heldLease.settled).toBe(false);
    expect(reload.settled).toBe(false);
    expect(kernel.activeGeneration("loop")).toBe(1);
    expect(life.disposed).toEqual([]);
    expect(lease.value.turn(2)).toBe("v1:2");

    // The safe point: the lease is released, the reload commits, held work runs on v2.
    lease.release();
    expect(await reload.promise).toEqual({ pluginId: "loop", status: "committed", generation: 2 });
    expect(commits.all).toEqual([{ pluginId: "loop", generation: 2, previous: 1 }]);
    expect(deferrals.all).toEqual([]);
    expect(await heldCall.promise).toBe("v2:7");
    const second = await heldLease.promise;
    expect(second.generation).toBe(2);
    second.release();
    expect(life.turns).toEqual(["v1:1", "v1:2", "v2:7"]);
    expect(life.disposed).toEqual(["v1"]);
    expect(handle.holding).toBe(false);
  });

  it("commits at once when nothing is in flight", async () => {
    const kernel = new Kernel();
    const life: Life = { disposed: [], turns: [] };
    await kernel.boot([{ id: "loop", source: inline(loop(LoopC, "v1", life), "v1") }]);
    const result = await kernel.reload("loop", { source: inline(loop(LoopC, "v2", life), "v2") });
    expect(result).toEqual({ pluginId: "loop", status: "committed", generation: 2 });
    expect(kernel.use(LoopC).call("turn", 1)).toBe("v2:1");
  });

  it("defers past the deadline without interrupting the held work, then applies at the next safe point", async () => {
    const phases = new Phases();
    const kernel = new Kernel({ phaseHook: phases.hook });
    const life: Life = { disposed: [], turns: [] };
    await kernel.boot([{ id: "loop", source: inline(loop(QuickLoopC, "v1", life), "v1") }]);
    const handle = kernel.use(QuickLoopC);
    const commits = record(kernel, "kernel:commit");
    const deferrals = record(kernel, "kernel:deferred");
    const errors = record(kernel, "kernel:error");

    const lease = await handle.acquire();
    const result = await kernel.reload("loop", { source: inline(loop(QuickLoopC, "v2", life), "v2") });

    expect(result).toEqual({ pluginId: "loop", status: "deferred", generation: 2 });
    expect(deferrals.all).toHaveLength(1);
    expect(deferrals.all[0]).toMatchObject({ pluginId: "loop", generation: 2 });
    expect(commits.all).toEqual([]);
    expect(kernel.activeGeneration("loop")).toBe(1);
    expect(kernel.liveGenerations("loop")).toBe(2);
    // Deferred, not killed: the held work goes on, and admission is open again meanwhile.
    expect(handle.holding).toBe(false);
    expect(lease.value.turn(1)).toBe("v1:1");
    expect(handle.call("turn", 2)).toBe("v1:2");
    expect(life.disposed).toEqual([]);

    // The next safe point: releasing the lease re-closes admission and the deferred reload goes through
    // the gate again. Stop it there to show that work arriving now is held for the new generation.
    const atGate = phases.pause("loop", "gate", 2);
    const committed = commits.next();
    lease.release();
    await atGate.reached;
    expect(handle.holding).toBe(true);
    const heldCall = track(Promise.resolve(handle.call("turn", 3)));
    await flush();
    expect(heldCall.settled).toBe(false);
    atGate.resume();

    expect(await committed).toEqual({ pluginId: "loop", generation: 2, previous: 1 });
    expect(await heldCall.promise).toBe("v2:3");
    await kernel.idle();
    expect(kernel.activeGeneration("loop")).toBe(2);
    expect(kernel.liveGenerations("loop")).toBe(1);
    expect(life.turns).toEqual(["v1:1", "v1:2", "v2:3"]);
    expect(life.disposed).toEqual(["v1"]);
    expect(errors.all).toEqual([]);
  });

  it("a newer reload supersedes one still waiting for its safe point", async () => {
    const kernel = new Kernel();
    const life: Life = { disposed: [], turns: [] };
    await kernel.boot([{ id: "loop", source: inline(loop(QuickLoopC, "v1", life), "v1") }]);
    const handle = kernel.use(QuickLoopC);
    const commits = record(kernel, "kernel:commit");

    const lease = await handle.acquire();
    expect((await kernel.reload("loop", { source: inline(loop(QuickLoopC, "v2", life), "v2") })).status).toBe(
      "deferred",
    );
    expect((await kernel.reload("loop", { source: inline(loop(QuickLoopC, "v3", life), "v3") })).status).toBe(
      "deferred",
    );
    expect(kernel.liveGenerations("loop")).toBe(2);

    const committed = commits.next();
    lease.release();
    expect(await committed).toEqual({ pluginId: "loop", generation: 3, previous: 1 });
    await kernel.idle();
    expect(handle.call("turn", 1)).toBe("v3:1");
    expect(commits.all).toHaveLength(1);
    expect(kernel.describe().plugins[0]).toMatchObject({ source: "v3", generation: 3 });
  });

  it("shutdown drops a reload still waiting for its safe point", async () => {
    const kernel = new Kernel();
    const life: Life = { disposed: [], turns: [] };
    await kernel.boot([{ id: "loop", source: inline(loop(QuickLoopC, "v1", life), "v1") }]);
    const lease = await kernel.use(QuickLoopC).acquire();
    let waitingCtx: { getState(): unknown } | undefined;
    const v2 = definePlugin({
      id: "loop",
      version: "1.0.0",
      provides: [QuickLoopC],
      setup(ctx) {
        waitingCtx = ctx;
        ctx.provide(QuickLoopC, { turn: (id: number) => `v2:${id}` });
      },
    });
    expect((await kernel.reload("loop", { source: inline(v2, "v2") })).status).toBe("deferred");
    expect(kernel.liveGenerations("loop")).toBe(2);

    const shutdown = kernel.shutdown();
    expect(lease.value.turn(1)).toBe("v1:1");
    lease.release();
    await shutdown;
    expect(life.disposed).toEqual(["v1"]);
    expect(kernel.liveGenerations("loop")).toBe(0);
    expect(() => waitingCtx!.getState()).toThrow(StaleGenerationError);
  });
});
