/**
 * `ctx.safePoint`: a long call that works in steps moves to the next generation between two steps, but
 * only while a reload of its plugin waits for a safe point. Otherwise it answers undefined and nothing
 * changes. A moved call parks its work in the plugin state; the handle carries it on in the next
 * generation, and the caller's one promise settles with the whole result: every step run exactly once.
 */
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { defineContract, definePlugin, type PluginContext } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { type Deferred, deferred, flush, inline, track } from "./helpers.js";

interface Worker {
  run(steps: number): Promise<string[]>;
  resume(): Promise<string[]>;
}
const WorkerC = defineContract<Worker>({
  id: "test/stepped-worker",
  version: "1.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 60_000,
  shape: { run: "function", resume: "function" },
  methods: { run: "async", resume: "async" },
});

interface Parked {
  done: string[];
  left: number;
}
interface WorkerState {
  parked?: Parked;
}

/** Steps the test opens one by one; what each safePoint answered, by generation. */
class Script {
  readonly steps: Array<Deferred<void>> = [];
  readonly answers: Array<{ generation: number; moved: boolean }> = [];
  readonly entered: Array<Deferred<void>> = [];

  constructor(count: number) {
    for (let i = 0; i < count; i++) {
      this.steps.push(deferred());
      this.entered.push(deferred());
    }
  }
}

function worker(script: Script) {
  return definePlugin({
    id: "worker",
    version: "1.0.0",
    provides: [WorkerC],
    state: {
      version: 1,
      schema: Type.Object({ parked: Type.Optional(Type.Any()) }),
      initial: (): WorkerState => ({}),
      migrate: (previous) => previous as WorkerState,
    },
    setup(ctx: PluginContext<unknown, WorkerState>) {
      const work = async (parked: Parked): Promise<string[]> => {
        const { done } = parked;
        for (let left = parked.left; left > 0; left--) {
          if (done.length > 0) {
            const moved = ctx.safePoint("resume");
            script.answers.push({ generation: ctx.generation, moved: moved !== undefined });
            if (moved !== undefined) {
              ctx.setState({ parked: { done, left } });
              return moved as never;
            }
          }
          const index = done.length;
          script.entered[index]!.resolve();
          await script.steps[index]!.promise;
          done.push(`step ${index} on generation ${ctx.generation}`);
        }
        return done;
      };
      ctx.provide(WorkerC, {
        run: (steps) => work({ done: [], left: steps }),
        resume: () => {
          const parked = ctx.getState().parked;
          if (parked === undefined) throw new Error("nothing parked to resume");
          ctx.setState({});
          return work(parked);
        },
      });
    },
  });
}

async function boot(script: Script, extra: Array<ReturnType<typeof definePlugin>> = []) {
  const kernel = new Kernel();
  const result = await kernel.boot([
    { id: "worker", source: inline(worker(script)) },
    ...extra.map((d) => ({ id: d.id, source: inline(d) })),
  ]);
  expect(result.errors).toEqual([]);
  return { kernel, handle: kernel.use(WorkerC) };
}

describe("ctx.safePoint", () => {
  it("is a no-op when no reload waits: the call runs every step on its generation", async () => {
    const script = new Script(3);
    const { kernel, handle } = await boot(script);
    for (const step of script.steps) step.resolve();
    expect(await handle.api.run(3)).toEqual([
      "step 0 on generation 1",
      "step 1 on generation 1",
      "step 2 on generation 1",
    ]);
    expect(script.answers).toEqual([
      { generation: 1, moved: false },
      { generation: 1, moved: false },
    ]);
    await kernel.shutdown();
  });

  it("does not move for a reload of another plugin", async () => {
    const script = new Script(2);
    const other = definePlugin({ id: "other", version: "1.0.0", setup() {} });
    const { kernel, handle } = await boot(script, [other]);
    const run = handle.api.run(2);
    await script.entered[0]!.promise;
    expect((await kernel.reload("other")).status).toBe("committed");
    script.steps[0]!.resolve();
    script.steps[1]!.resolve();
    expect(await run).toEqual(["step 0 on generation 1", "step 1 on generation 1"]);
    expect(script.answers).toEqual([{ generation: 1, moved: false }]);
    await kernel.shutdown();
  });

  it("moves the call when a reload waits at the gate: the reload commits mid-call, each step runs once", async () => {
    const script = new Script(4);
    const { kernel, handle } = await boot(script);
    const retired: number[] = [];
    kernel.on("kernel:retired", ({ generation }) => retired.push(generation));
    const run = track(handle.api.run(4));
    await script.entered[0]!.promise;
    script.steps[0]!.resolve();
    await script.entered[1]!.promise;
    // A reload arrives while step 1 runs: it waits at the gate for this call.
    const reload = track(kernel.reload("worker"));
    await flush();
    expect(reload.settled).toBe(false);
    script.steps[1]!.resolve();
    // At the next safe point the call moves: the gate sees no work in flight and commits.
    expect((await reload.promise).status).toBe("committed");
    expect(run.settled).toBe(false);
    await script.entered[2]!.promise;
    expect(kernel.activeGeneration("worker")).toBe(2);
    expect(retired).toEqual([1]);
    script.steps[2]!.resolve();
    script.steps[3]!.resolve();
    expect(await run.promise).toEqual([
      "step 0 on generation 1",
      "step 1 on generation 1",
      "step 2 on generation 2",
      "step 3 on generation 2",
    ]);
    expect(script.answers).toEqual([
      { generation: 1, moved: false },
      { generation: 1, moved: true },
      // The resumed call asks again before step 2 (now on generation 2) and before step 3.
      { generation: 2, moved: false },
      { generation: 2, moved: false },
    ]);
    await kernel.shutdown();
  });

  it("does not move the call for a disable: the gate waits for the call to end", async () => {
    const script = new Script(2);
    const { kernel, handle } = await boot(script);
    const run = handle.api.run(2);
    await script.entered[0]!.promise;
    const disable = track(kernel.disable("worker"));
    await flush();
    script.steps[0]!.resolve();
    await script.entered[1]!.promise;
    expect(disable.settled).toBe(false);
    script.steps[1]!.resolve();
    expect(await run).toEqual(["step 0 on generation 1", "step 1 on generation 1"]);
    expect((await disable.promise).status).toBe("committed");
    expect(script.answers).toEqual([{ generation: 1, moved: false }]);
    await kernel.shutdown();
  });
});
