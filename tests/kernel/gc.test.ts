/**
 * A retired generation becomes garbage: its context, its provider objects and its module objects are
 * collected after retire, and no more than two generations of a plugin are ever alive at once.
 * Needs `--expose-gc` (set in vitest.config.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defineContract, definePlugin, type PhaseInfo } from "../../kernel/index.js";
import { Kernel } from "../../hosts/host-kernel.js";
import { ownedInterval } from "../../kit/process/owned.js";
import { deferred, inline, record } from "./helpers.js";

interface Numbered {
  n(): number;
  wait(): Promise<number>;
}
const NumberedC = defineContract<Numbered>({
  id: "test/numbered",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { n: "function" },
  methods: { n: "sync", wait: "async" },
});
const BoundaryNumberedC = defineContract<Numbered>({
  id: "test/boundary-numbered",
  version: "1.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 20,
  shape: { n: "function" },
  methods: { n: "sync", wait: "async" },
});

const gc = (globalThis as { gc?: () => void }).gc;

/** Runs the collector until `done()` or the attempts run out; finalizers run between turns. */
async function collectUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !done(); i++) {
    gc!();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A phase hook that records the most generations of `pluginId` it ever saw alive at once. */
function watchLive(pluginId: string): {
  hook: (info: PhaseInfo) => void;
  max: () => number;
  attach: (kernel: Kernel) => void;
} {
  let kernel: Kernel | undefined;
  let max = 0;
  return {
    attach: (k) => (kernel = k),
    hook: () => {
      if (kernel !== undefined) max = Math.max(max, kernel.liveGenerations(pluginId));
    },
    max: () => max,
  };
}

const RELOADS = 30;

describe("garbage collection of retired generations", () => {
  it("has the collector available", () => {
    expect(typeof gc).toBe("function");
  });

  it("collects every retired generation's context and provider (inline sources, overlap)", async () => {
    const collected = new Set<string>();
    const registry = new FinalizationRegistry<string>((tag) => collected.add(tag));
    const live = watchLive("numbered");
    const kernel = new Kernel({ phaseHook: live.hook });
    live.attach(kernel);

    const make = (n: number) =>
      definePlugin({
        id: "numbered",
        version: "1.0.0",
        provides: [NumberedC],
        setup(ctx) {
          const ballast = new Array(10_000).fill(n);
          const provider = { n: () => n + ballast.length * 0, wait: async () => n, ctx };
          registry.register(ctx, `ctx:${ctx.generation}`);
          registry.register(provider, `provider:${ctx.generation}`);
          ctx.on("test:ping", () => provider.n());
          ownedInterval(ctx, () => provider.n(), 60_000);
          ctx.onDispose(() => void provider.n());
          ctx.provide(NumberedC, provider);
        },
      });

    await kernel.boot([{ id: "numbered", source: inline(make(1), "n1") }]);
    const handle = kernel.use(NumberedC);
    for (let n = 2; n <= RELOADS + 1; n++) {
      // Keep a call in flight across each reload so that two generations really are alive together.
      const open = deferred<void>();
      const lease = await handle.acquire();
      const inFlight = open.promise.then(() => lease.release());
      const committed = record(kernel, "kernel:commit");
      const next = committed.next();
      const reload = kernel.reload("numbered", { source: inline(make(n), `n${n}`) });
      await next;
      committed.off();
      expect(kernel.liveGenerations("numbered")).toBe(2);
      open.resolve();
      await inFlight;
      expect((await reload).status).toBe("committed");
      expect(handle.call("n")).toBe(n);
    }

    const last = RELOADS + 1;
    const expected = (tag: string) => Array.from({ length: last - 1 }, (_, i) => `${tag}:${i + 1}`);
    await collectUntil(
      () => expected("ctx").every((t) => collected.has(t)) && expected("provider").every((t) => collected.has(t)),
    );

    for (const tag of [...expected("ctx"), ...expected("provider")]) expect(collected.has(tag), tag).toBe(true);
    expect(collected.has(`ctx:${last}`)).toBe(false);
    expect(collected.has(`provider:${last}`)).toBe(false);
    expect(live.max()).toBe(2);
    expect(handle.call("n")).toBe(last);
  });

  it("collects generations of a boundary plugin whose reloads were deferred", async () => {
    const collected = new Set<number>();
    const registry = new FinalizationRegistry<number>((n) => collected.add(n));
    const live = watchLive("bounded");
    const kernel = new Kernel({ phaseHook: live.hook });
    live.attach(kernel);
    const make = (n: number) =>
      definePlugin({
        id: "bounded",
        version: "1.0.0",
        provides: [BoundaryNumberedC],
        setup(ctx) {
          registry.register(ctx, ctx.generation);
          ctx.provide(BoundaryNumberedC, { n: () => n, wait: async () => n });
        },
      });
    await kernel.boot([{ id: "bounded", source: inline(make(1), "b1") }]);
    const handle = kernel.use(BoundaryNumberedC);
    const rounds = 5;
    for (let n = 2; n <= rounds + 1; n++) {
      const lease = await handle.acquire();
      // Two requests while the lease is held: the second supersedes the first, both defer.
      expect((await kernel.reload("bounded", { source: inline(make(n * 100), `b${n}x`) })).status).toBe("deferred");
      expect((await kernel.reload("bounded", { source: inline(make(n), `b${n}`) })).status).toBe("deferred");
      expect(kernel.liveGenerations("bounded")).toBe(2);
      const committed = record(kernel, "kernel:commit").next();
      lease.release();
      await committed;
      await kernel.idle();
      expect(handle.call("n")).toBe(n);
    }
    const active = kernel.activeGeneration("bounded")!;
    await collectUntil(() => collected.size >= active - 1);
    for (let g = 1; g < active; g++) expect(collected.has(g), `generation ${g}`).toBe(true);
    expect(collected.has(active)).toBe(false);
    expect(live.max()).toBe(2);
  });

  it("collects the module objects of file plugins loaded through jiti", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-host-gc-"));
    try {
      const file = join(dir, "counted.ts");
      const collected = new Set<number>();
      const registry = new FinalizationRegistry<number>((n) => collected.add(n));
      (globalThis as { __piHostGcRegistry?: unknown }).__piHostGcRegistry = registry;
      const kernel = new Kernel({
        virtualModules: { "pi-host": await import("../../kernel/index.js"), "test-contracts": { NumberedC } },
      });
      const write = (n: number) =>
        writeFileSync(
          file,
          `import { definePlugin } from "pi-host";
           import { NumberedC } from "test-contracts";
           const moduleObject = { n: ${n}, ballast: new Array(10000).fill(${n}) };
           const plugin = definePlugin({
             id: "counted",
             version: "1.0.0",
             provides: [NumberedC],
             setup(ctx) {
               ctx.provide(NumberedC, { n: () => moduleObject.n, wait: async () => moduleObject.n });
             },
           });
           globalThis.__piHostGcRegistry.register(moduleObject, ${n});
           globalThis.__piHostGcRegistry.register(plugin, ${n} * 1000);
           export default plugin;
          `,
        );
      write(1);
      await kernel.boot([{ id: "counted", source: { kind: "file", path: file } }]);
      const handle = kernel.use(NumberedC);
      const files = 10;
      for (let n = 2; n <= files; n++) {
        write(n);
        expect((await kernel.reload("counted")).status).toBe("committed");
        expect(handle.call("n")).toBe(n);
      }
      const expected = Array.from({ length: files - 1 }, (_, i) => i + 1).flatMap((n) => [n, n * 1000]);
      await collectUntil(() => expected.every((n) => collected.has(n)));
      for (const n of expected) expect(collected.has(n), `module object ${n}`).toBe(true);
      expect(collected.has(files)).toBe(false);
      await kernel.shutdown();
    } finally {
      delete (globalThis as { __piHostGcRegistry?: unknown }).__piHostGcRegistry;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
