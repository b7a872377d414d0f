/**
 * Overlap reloads never tear a call: a call admitted by the old generation finishes there, calls
 * admitted after commit run on the new one, and every call yields exactly one result and runs its side
 * effect exactly once.
 */
import { describe, expect, it } from "vitest";
import { defineContract, definePlugin } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { deferred, inline, Phases, record, type Deferred } from "./helpers.js";

interface Worker {
  run(id: number): Promise<string>;
}
const WorkerC = defineContract<Worker>({
  id: "test/worker",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { run: "function" },
  methods: { run: "async" },
});

/** Side effects by call id: which generation marker ran it. */
type Effects = Map<number, string[]>;

function worker(marker: string, effects: Effects, gate: Deferred<void> | undefined) {
  return definePlugin({
    id: "worker",
    version: "1.0.0",
    provides: [WorkerC],
    setup(ctx) {
      ctx.provide(WorkerC, {
        async run(id: number) {
          effects.set(id, [...(effects.get(id) ?? []), marker]);
          if (gate) await gate.promise;
          return `${marker}:${id}`;
        },
      });
    },
  });
}

describe("exactly once across an overlap reload", () => {
  it("finishes old calls on the old generation and new calls on the new one, each once", async () => {
    const phases = new Phases();
    const kernel = new Kernel({ phaseHook: phases.hook });
    const effects: Effects = new Map();
    const oldGate = deferred();
    await kernel.boot([{ id: "worker", source: inline(worker("v1", effects, oldGate), "v1") }]);
    const handle = kernel.use(WorkerC);
    const commits = record(kernel, "kernel:commit");
    const retired = record(kernel, "kernel:retired");

    const calls: Array<{ id: number; expected: string; result: Promise<string> }> = [];
    const start = (id: number, expected: string) => calls.push({ id, expected, result: handle.call("run", id) });

    // Admitted before the reload starts: in flight on generation 1 throughout.
    for (let id = 0; id < 10; id++) start(id, "v1");

    const atCommit = phases.pause("worker", "commit", 2);
    const committed = commits.next();
    const reload = kernel.reload("worker", { source: inline(worker("v2", effects, undefined), "v2") });

    // Paused just before commit: the handle still admits to generation 1.
    await atCommit.reached;
    for (let id = 10; id < 20; id++) start(id, "v1");
    expect(kernel.liveGenerations("worker")).toBe(1);
    atCommit.resume();

    expect(await committed).toEqual({ pluginId: "worker", generation: 2, previous: 1 });
    // Admitted after commit: generation 2, which does not wait on the old gate.
    for (let id = 20; id < 30; id++) start(id, "v2");
    expect(kernel.liveGenerations("worker")).toBe(2);
    for (const c of calls.filter((c) => c.id >= 20)) expect(await c.result).toBe(`v2:${c.id}`);

    // The old generation is still draining: nothing retired, the reload not yet settled.
    expect(retired.all).toEqual([]);
    expect(kernel.activeGeneration("worker")).toBe(2);

    oldGate.resolve();
    expect(await reload).toEqual({ pluginId: "worker", status: "committed", generation: 2 });
    expect(retired.all).toEqual([{ pluginId: "worker", generation: 1 }]);

    const results = await Promise.all(calls.map((c) => c.result));
    expect(results).toEqual(calls.map((c) => `${c.expected}:${c.id}`));
    expect(effects.size).toBe(30);
    for (const c of calls) expect(effects.get(c.id)).toEqual([c.expected]);
    expect(kernel.liveGenerations("worker")).toBe(1);
  });

  it("delivers a rejection from the old generation exactly once, and the reload still commits", async () => {
    const kernel = new Kernel();
    const effects: Effects = new Map();
    const oldGate = deferred();
    await kernel.boot([{ id: "worker", source: inline(worker("v1", effects, oldGate), "v1") }]);
    const handle = kernel.use(WorkerC);
    const committed = record(kernel, "kernel:commit").next();

    let settlements = 0;
    const failing = handle.call("run", 1).then(
      () => {
        settlements++;
        return "resolved";
      },
      (error: Error) => {
        settlements++;
        return error.message;
      },
    );
    const reload = kernel.reload("worker", { source: inline(worker("v2", effects, undefined), "v2") });
    await committed;
    expect(await handle.call("run", 2)).toBe("v2:2");

    oldGate.reject(new Error("old work failed"));
    expect(await failing).toBe("old work failed");
    expect((await reload).status).toBe("committed");
    expect(settlements).toBe(1);
    expect(effects.get(1)).toEqual(["v1"]);
    expect(effects.get(2)).toEqual(["v2"]);
  });
});
