/**
 * The typed view `handle.api`: a plain object built once per handle whose forwarders do what `call`
 * does. A call admitted by one generation finishes there while a reload commits; calls after the commit
 * go to the new generation through the same view. A sync method called while a boundary gate holds the
 * handle fails with HandleHeldError; an async one waits for the new generation.
 */
import { describe, expect, it } from "vitest";
import { defineContract, definePlugin, HandleHeldError } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { deferred, flush, inline, Phases, track } from "./helpers.js";

interface Worker {
  marker(): string;
  work(gate: Promise<void>): Promise<string>;
}
const OverlapC = defineContract<Worker>({
  id: "test/api-overlap",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  methods: { marker: "sync", work: "async" },
});
const BoundaryC = defineContract<Worker>({
  id: "test/api-boundary",
  version: "1.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 60_000,
  methods: { marker: "sync", work: "async" },
});

function worker(contract: typeof OverlapC, marker: string) {
  return definePlugin({
    id: "worker",
    version: "1.0.0",
    provides: [contract],
    setup(ctx) {
      ctx.provide(contract, {
        marker: () => marker,
        work: async (gate) => {
          await gate;
          return marker;
        },
      });
    },
  });
}

describe("handle.api", () => {
  it("is a plain object with one forwarder per listed method, the same object for the handle's life", async () => {
    const kernel = new Kernel();
    await kernel.boot([{ id: "worker", source: inline(worker(OverlapC, "v1"), "v1") }]);
    const handle = kernel.use(OverlapC);
    expect(Object.getPrototypeOf(handle.api)).toBe(Object.prototype);
    expect(Object.keys(handle.api).sort()).toEqual(["marker", "work"]);
    const view = handle.api;
    await kernel.reload("worker", { source: inline(worker(OverlapC, "v2"), "v2") });
    expect(handle.api).toBe(view);
    await kernel.shutdown();
  });

  it("pins a call to the generation that admitted it across a reload; later calls reach the new one", async () => {
    const kernel = new Kernel();
    await kernel.boot([{ id: "worker", source: inline(worker(OverlapC, "v1"), "v1") }]);
    const api = kernel.use(OverlapC).api;
    const open = deferred();
    const inFlight = api.work(open.promise);
    const reload = kernel.reload("worker", { source: inline(worker(OverlapC, "v2"), "v2") });
    await flush();
    expect(api.marker()).toBe("v2");
    open.resolve();
    expect(await inFlight).toBe("v1");
    expect((await reload).status).toBe("committed");
    await kernel.shutdown();
  });

  it("fails a held sync call with HandleHeldError and lets a held async call wait for the new generation", async () => {
    const phases = new Phases();
    const kernel = new Kernel({ phaseHook: phases.hook });
    await kernel.boot([{ id: "worker", source: inline(worker(BoundaryC, "v1"), "v1") }]);
    const handle = kernel.use(BoundaryC);
    const lease = await handle.acquire();
    const atGate = phases.pause("worker", "gate", 2);
    const reload = track(kernel.reload("worker", { source: inline(worker(BoundaryC, "v2"), "v2") }));
    await atGate.reached;
    atGate.resume();
    await flush();
    expect(handle.holding).toBe(true);

    expect(() => handle.api.marker()).toThrow(HandleHeldError);
    const held = track(handle.api.work(Promise.resolve()));
    await flush();
    expect(held.settled).toBe(false);

    lease.release();
    expect(await held.promise).toBe("v2");
    await reload.promise;
    expect(handle.api.marker()).toBe("v2");
    await kernel.shutdown();
  });
});
