/**
 * A reload waiting at a boundary gate for its safe point must not hold up the reloads of other plugins.
 *
 * Found by bench/soak.mjs: a save of agent-session while a run went on waited at its gate (up to the
 * contract's 5 s deadline) *inside* the lifecycle queue, so every save of any other plugin in that time —
 * a tool, the provider, the tui — waited behind it: save→commit p95 of 3–6 s for plugins whose own reload
 * takes ~100 ms. The wait now happens beside the queue: new work on the gated plugin is held as before,
 * and the reload commits at its safe point or is deferred at its deadline, while other operations run.
 */
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { defineContract, definePlugin } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { flush, inline, record, track } from "./helpers.js";

interface Loop {
  turn(id: number): string;
}
interface Tool {
  run(): string;
}
/** A deadline long enough that only the safe point can open the gate. */
const LoopC = defineContract<Loop>({
  id: "test/gated-loop",
  version: "1.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 60_000,
  shape: { turn: "function" },
  methods: { turn: "sync" },
});
const QuickLoopC = defineContract<Loop>({
  id: "test/gated-quick-loop",
  version: "1.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 30,
  shape: { turn: "function" },
  methods: { turn: "sync" },
});
const ToolC = defineContract<Tool>({
  id: "test/gated-tool",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  shape: { run: "function" },
  methods: { run: "sync" },
});

function loop(contract: typeof LoopC, marker: string, disposed: string[] = []) {
  return definePlugin({
    id: "loop",
    version: "1.0.0",
    provides: [contract],
    setup(ctx) {
      ctx.onDispose(() => void disposed.push(marker));
      ctx.provide(contract, { turn: (id: number) => `${marker}:${id}` });
    },
  });
}

function tool(marker: string) {
  return definePlugin({
    id: "tool",
    version: "1.0.0",
    provides: [ToolC],
    setup(ctx) {
      ctx.provide(ToolC, { run: () => marker }, { key: "t" });
    },
  });
}

async function boot(contract: typeof LoopC, disposed?: string[]) {
  const kernel = new Kernel();
  const result = await kernel.boot([
    { id: "loop", source: inline(loop(contract, "loop1", disposed), "loop1") },
    { id: "tool", source: inline(tool("tool1"), "tool1") },
  ]);
  expect(result.errors).toEqual([]);
  return { kernel, loopHandle: kernel.use(contract), toolHandle: kernel.useAll(ToolC).slot("tool#t") };
}

describe("a reload waiting at a boundary gate", () => {
  it("lets other plugins reload meanwhile, and still commits at its safe point", async () => {
    const disposed: string[] = [];
    const { kernel, loopHandle, toolHandle } = await boot(LoopC, disposed);
    const commits = record(kernel, "kernel:commit");
    const lease = await loopHandle.acquire();

    const loopReload = track(kernel.reload("loop", { source: inline(loop(LoopC, "loop2", disposed), "loop2") }));
    while (!loopHandle.holding) await flush();
    const idle = track(kernel.idle());

    // The tool reloads while the loop's reload still waits for its safe point.
    expect(await kernel.reload("tool", { source: inline(tool("tool2"), "tool2") })).toEqual({
      pluginId: "tool",
      status: "committed",
      generation: 2,
    });
    expect(toolHandle.call("run")).toBe("tool2");
    expect(loopReload.settled).toBe(false);
    expect(idle.settled).toBe(false);
    expect(kernel.activeGeneration("loop")).toBe(1);
    expect(kernel.liveGenerations("loop")).toBe(2);
    const heldTurn = track(Promise.resolve(loopHandle.call("turn", 1)));
    await flush();
    expect(heldTurn.settled).toBe(false);
    expect(lease.value.turn(0)).toBe("loop1:0");

    // The safe point: the loop commits; held work runs on the new generation; the kernel is idle after.
    lease.release();
    expect(await loopReload.promise).toEqual({ pluginId: "loop", status: "committed", generation: 2 });
    expect(await heldTurn.promise).toBe("loop2:1");
    await idle.promise;
    expect(kernel.liveGenerations("loop")).toBe(1);
    expect(disposed).toEqual(["loop1"]);
    expect(commits.all.map((c) => `${c.pluginId}#${c.generation}`)).toEqual(["tool#2", "loop#2"]);
    await kernel.shutdown();
  });

  it("is deferred at its deadline, as before, without holding anything up", async () => {
    const { kernel, loopHandle } = await boot(QuickLoopC);
    const deferrals = record(kernel, "kernel:deferred");
    const lease = await loopHandle.acquire();

    const loopReload = kernel.reload("loop", { source: inline(loop(QuickLoopC, "loop2"), "loop2") });
    expect(await kernel.reload("tool", { source: inline(tool("tool2"), "tool2") })).toMatchObject({
      status: "committed",
    });
    expect(await loopReload).toEqual({ pluginId: "loop", status: "deferred", generation: 2 });
    expect(deferrals.all).toHaveLength(1);
    expect(loopHandle.holding).toBe(false);
    expect(loopHandle.call("turn", 1)).toBe("loop1:1");

    const committed = record(kernel, "kernel:commit").next();
    lease.release();
    expect(await committed).toMatchObject({ pluginId: "loop", generation: 2 });
    await kernel.idle();
    expect(loopHandle.call("turn", 2)).toBe("loop2:2");
    await kernel.shutdown();
  });

  it("a newer change of the same plugin supersedes it; both callers get the outcome that served", async () => {
    const { kernel, loopHandle } = await boot(LoopC);
    const commits = record(kernel, "kernel:commit");
    const lease = await loopHandle.acquire();

    const first = kernel.reload("loop", { source: inline(loop(LoopC, "loop2"), "loop2") });
    while (!loopHandle.holding) await flush();
    const second = kernel.reload("loop", { source: inline(loop(LoopC, "loop3"), "loop3") });
    await flush();
    expect(kernel.liveGenerations("loop")).toBe(2);

    lease.release();
    const outcome = { pluginId: "loop", status: "committed", generation: 3 };
    expect(await second).toEqual(outcome);
    expect(await first).toEqual(outcome);
    expect(commits.all).toEqual([{ pluginId: "loop", generation: 3, previous: 1 }]);
    expect(loopHandle.call("turn", 1)).toBe("loop3:1");
    await kernel.shutdown();
  });

  it("a config change that supersedes it keeps the source that one asked for", async () => {
    const configured = definePlugin({
      id: "loop",
      version: "1.0.0",
      provides: [LoopC],
      config: Type.Object({ level: Type.Optional(Type.Number()) }),
      setup(ctx) {
        ctx.provide(LoopC, { turn: (id: number) => `configured:${JSON.stringify(ctx.config)}:${id}` });
      },
    });
    const { kernel, loopHandle } = await boot(LoopC);
    const lease = await loopHandle.acquire();
    const first = kernel.reload("loop", { source: inline(configured, "configured") });
    while (!loopHandle.holding) await flush();
    const second = kernel.configure("loop", { level: 2 });
    lease.release();
    expect(await second).toMatchObject({ status: "committed", generation: 3 });
    expect(await first).toMatchObject({ status: "committed", generation: 3 });
    expect(loopHandle.call("turn", 1)).toBe('configured:{"level":2}:1');
    await kernel.shutdown();
  });

  it("shutdown drops it: the held work is let go and its caller hears why", async () => {
    const disposed: string[] = [];
    const { kernel, loopHandle } = await boot(LoopC, disposed);
    const lease = await loopHandle.acquire();
    const reload = kernel.reload("loop", { source: inline(loop(LoopC, "loop2", disposed), "loop2") });
    while (!loopHandle.holding) await flush();

    const shutdown = kernel.shutdown();
    const result = await reload;
    expect(result).toMatchObject({ pluginId: "loop", status: "aborted", generation: 2 });
    expect(result.error?.cause.message).toContain("shutting down");
    expect(loopHandle.holding).toBe(false);
    lease.release();
    await shutdown;
    expect(disposed).toEqual(["loop1"]);
    expect(kernel.liveGenerations("loop")).toBe(0);
  });
});
