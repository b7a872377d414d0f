/**
 * A retired generation's context refuses every use with StaleGenerationError, loudly and counted, while
 * a generation that is still draining its admitted work may use it to finish.
 */
import { describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import { defineContract, definePlugin, StaleGenerationError, type PluginContext } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { deferred, inline, record } from "./helpers.js";

interface Reader {
  read(): Promise<number>;
}
const ReaderC = defineContract<Reader>({
  id: "test/reader",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { read: "function" },
  methods: { read: "async" },
});

function reader(contexts: PluginContext[], gate?: Promise<void>) {
  return definePlugin({
    id: "reader",
    version: "1.0.0",
    provides: [ReaderC],
    state: { version: 1, schema: Type.Object({ n: Type.Number() }), initial: () => ({ n: 5 }) },
    setup(ctx) {
      contexts.push(ctx);
      ctx.provide(ReaderC, {
        async read() {
          await gate;
          return (ctx.getState() as { n: number }).n;
        },
      });
    },
  });
}

/** Every member of the context, called the way a plugin would. */
function uses(ctx: PluginContext): Array<[string, () => unknown]> {
  return [
    ["getState", () => ctx.getState()],
    ["setState", () => ctx.setState({ n: 1 })],
    ["use", () => ctx.use(ReaderC)],
    ["on", () => ctx.on("x", () => {})],
    ["emit", () => ctx.emit("x")],
    ["own", () => ctx.own("x", () => {})],
    ["effect", () => ctx.effect("x", () => {})],
    ["onStart", () => ctx.onStart(() => {})],
    ["onDispose", () => ctx.onDispose(() => {})],
    ["provide", () => ctx.provide(ReaderC, { read: async () => 0 })],
  ];
}

describe("stale generations", () => {
  it("throws StaleGenerationError on every use of a retired context, and counts each", async () => {
    const kernel = new Kernel();
    const contexts: PluginContext[] = [];
    await kernel.boot([{ id: "reader", source: inline(reader(contexts), "r1") }]);
    expect((await kernel.reload("reader", { source: inline(reader(contexts), "r2") })).status).toBe("committed");
    const [old, current] = contexts;
    expect(kernel.staleUses).toBe(0);

    const attempts = uses(old!);
    for (const [member, use] of attempts) {
      let thrown: unknown;
      try {
        use();
      } catch (error) {
        thrown = error;
      }
      expect(thrown, member).toBeInstanceOf(StaleGenerationError);
      expect(thrown).toMatchObject({ pluginId: "reader", generation: 1, member });
    }
    expect(kernel.staleUses).toBe(attempts.length);

    // The live generation's context is unaffected.
    expect(current!.getState()).toEqual({ n: 5 });
    expect(kernel.staleUses).toBe(attempts.length);
  });

  it("lets a draining generation finish with its context, and refuses it once retired", async () => {
    const kernel = new Kernel();
    const contexts: PluginContext[] = [];
    const gate = deferred<void>();
    await kernel.boot([{ id: "reader", source: inline(reader(contexts, gate.promise), "r1") }]);
    const handle = kernel.use(ReaderC);
    const lease = await handle.acquire();
    const oldRead = handle.call("read");
    const committed = record(kernel, "kernel:commit").next();
    const reload = kernel.reload("reader", { source: inline(reader(contexts), "r2") });
    await committed;

    // Retiring, not retired: admitted work completes through the old context.
    gate.resolve();
    expect(await oldRead).toBe(5);
    expect(kernel.staleUses).toBe(0);

    // Old code kept past its retirement (here through a lease's value) fails loudly.
    lease.release();
    await reload;
    await expect(lease.value.read()).rejects.toBeInstanceOf(StaleGenerationError);
    expect(kernel.staleUses).toBe(1);
    expect(await handle.call("read")).toBe(5);
  });

  it("refuses the context of a generation discarded at prepare", async () => {
    const kernel = new Kernel();
    const contexts: PluginContext[] = [];
    await kernel.boot([{ id: "reader", source: inline(reader(contexts), "r1") }]);
    const failing = definePlugin({
      id: "reader",
      version: "1.0.0",
      provides: [ReaderC],
      setup(ctx) {
        contexts.push(ctx);
        throw new Error("bad setup");
      },
    });
    expect((await kernel.reload("reader", { source: inline(failing, "r2") })).status).toBe("aborted");
    expect(() => contexts[1]!.getState()).toThrow(StaleGenerationError);
    expect(kernel.staleUses).toBe(1);
  });
});
