/**
 * Seeded random interleavings of reload, edit, disable, enable and configure, fired concurrently (with
 * calls in flight and the queue let run at random points): every operation settles, none rejects, no
 * rejection goes unhandled, and each plugin ends exactly where the last request left it — on the last
 * written source with the last config, enabled or not as last asked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import {
  defineContract,
  definePlugin,
  NoProviderError,
  type Contract,
  type OperationResult,
} from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { deferred, flush, inline, type Deferred } from "./helpers.js";

interface Marked {
  marker(): string;
  work(): Promise<string>;
}
const AlphaC = defineContract<Marked>({
  id: "test/alpha",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { marker: "function", work: "function" },
  methods: { marker: "sync", work: "async" },
});
const BetaC = defineContract<Marked>({
  id: "test/beta",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { marker: "function", work: "function" },
  methods: { marker: "sync", work: "async" },
});
const CONTRACTS: Record<string, Contract<Marked>> = { alpha: AlphaC, beta: BetaC };

/** mulberry32: a tiny seeded PRNG, so a failing seed can be replayed exactly. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One edit of a plugin: its provider answers with the edit's label, its config and its generation. */
function edition(id: string, label: string, gate: { current: Promise<void> }) {
  return definePlugin({
    id,
    version: "1.0.0",
    provides: [CONTRACTS[id]!],
    config: Type.Object({ n: Type.Number({ default: 0 }) }),
    setup(ctx) {
      const mark = () => `${label}|${ctx.config.n}|g${ctx.generation}`;
      ctx.provide(CONTRACTS[id]!, {
        marker: mark,
        work: async () => {
          await gate.current;
          return mark();
        },
      });
    },
  });
}

interface Model {
  label: string;
  n: number;
  enabled: boolean;
}

interface Call {
  admittedBy: number;
  release: Deferred<void>;
  results: string[];
  failures: unknown[];
  done: Promise<void>;
}

let unhandled = 0;
const onUnhandled = () => void unhandled++;
beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(() => void process.off("unhandledRejection", onUnhandled));

async function runSeed(seed: number): Promise<void> {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const kernel = new Kernel();
  const errors: unknown[] = [];
  kernel.on("kernel:error", (e) => errors.push(e));
  const ids = ["alpha", "beta"] as const;
  const model: Record<string, Model> = {};
  const gates: Record<string, { current: Promise<void> }> = {};
  let edits = 0;

  const entries = ids.map((id) => {
    model[id] = { label: `${id}#0`, n: 0, enabled: true };
    gates[id] = { current: Promise.resolve() };
    return { id, source: inline(edition(id, `${id}#0`, gates[id]!), `${id}#0`), config: { n: 0 } };
  });
  expect((await kernel.boot(entries)).errors).toEqual([]);

  const operations: Array<Promise<OperationResult>> = [];
  const rejected: unknown[] = [];
  const fire = (op: Promise<OperationResult>) => {
    operations.push(op);
    op.catch((error) => rejected.push(error));
  };
  const calls: Call[] = [];
  const open: Call[] = [];

  const steps = 10 + Math.floor(random() * 20);
  for (let step = 0; step < steps; step++) {
    const id = pick(ids);
    const kind = pick([
      "reload",
      "edit",
      "edit",
      "disable",
      "enable",
      "configure",
      "call",
      "call",
      "release",
      "yield",
      "yield",
    ] as const);
    switch (kind) {
      case "reload":
        fire(kernel.reload(id));
        break;
      case "edit": {
        const label = `${id}#${++edits}`;
        model[id]!.label = label;
        fire(kernel.reload(id, { source: inline(edition(id, label, gates[id]!), label) }));
        break;
      }
      case "disable":
        model[id]!.enabled = false;
        fire(kernel.disable(id));
        break;
      case "enable":
        model[id]!.enabled = true;
        fire(kernel.enable(id));
        break;
      case "configure": {
        const n = Math.floor(random() * 100);
        model[id]!.n = n;
        fire(kernel.configure(id, { n }));
        break;
      }
      case "call": {
        const handle = kernel.use(CONTRACTS[id]!);
        const release = deferred<void>();
        gates[id]!.current = release.promise;
        const admittedBy = handle.generation;
        let promise: Promise<string>;
        try {
          promise = handle.call("work");
        } catch (error) {
          expect(error).toBeInstanceOf(NoProviderError);
          expect(admittedBy).toBeUndefined();
          break;
        }
        const call: Call = { admittedBy: admittedBy!, release, results: [], failures: [], done: undefined! };
        call.done = promise.then(
          (r) => void call.results.push(r),
          (e) => void call.failures.push(e),
        );
        calls.push(call);
        open.push(call);
        break;
      }
      case "release":
        if (open.length > 0) open.splice(Math.floor(random() * open.length), 1)[0]!.release.resolve();
        break;
      case "yield":
        if (random() < 0.5) await flush();
        else for (let i = Math.floor(random() * 5); i >= 0; i--) await Promise.resolve();
        break;
    }
  }
  for (const call of open.splice(0)) call.release.resolve();
  for (const id of ids) gates[id]!.current = Promise.resolve();

  await kernel.idle();
  const results = await Promise.allSettled(operations);
  await Promise.all(calls.map((c) => c.done));
  await flush();

  expect(rejected, `seed ${seed}`).toEqual([]);
  for (const r of results) {
    expect(r.status).toBe("fulfilled");
    expect(["committed", "noop"], `seed ${seed}: ${JSON.stringify(r)}`).toContain(
      (r as PromiseFulfilledResult<OperationResult>).value.status,
    );
  }
  expect(errors, `seed ${seed}`).toEqual([]);
  for (const call of calls) {
    expect(call.failures, `seed ${seed}`).toEqual([]);
    expect(call.results, `seed ${seed}`).toHaveLength(1);
    expect(
      call.results[0]!.endsWith(`|g${call.admittedBy}`),
      `seed ${seed}: ${call.results[0]} admitted by ${call.admittedBy}`,
    ).toBe(true);
  }
  for (const id of ids) {
    const m = model[id]!;
    const handle = kernel.use(CONTRACTS[id]!);
    const described = kernel.describe().plugins.find((p) => p.id === id)!;
    expect(described.source, `seed ${seed} ${id}`).toBe(m.label);
    if (m.enabled) {
      expect(handle.call("marker"), `seed ${seed} ${id}`).toBe(`${m.label}|${m.n}|g${kernel.activeGeneration(id)}`);
      expect(described.status).toBe("active");
      expect(kernel.liveGenerations(id)).toBe(1);
    } else {
      expect(handle.available, `seed ${seed} ${id}`).toBe(false);
      expect(described.status).toBe("disabled");
      expect(kernel.liveGenerations(id)).toBe(0);
    }
  }
  await kernel.shutdown();
}

describe("random interleavings", () => {
  it("settle 200 seeded interleavings on the last requested state", async () => {
    for (let seed = 1; seed <= 200; seed++) await runSeed(seed);
    expect(unhandled).toBe(0);
  });
});

describe("coalesced requests", () => {
  /** Boots alpha and returns a kernel whose queue is busy (alpha's first reload is running), so later requests wait and merge. */
  async function busyKernel() {
    const kernel = new Kernel();
    const gate = { current: Promise.resolve() };
    await kernel.boot([{ id: "alpha", source: inline(edition("alpha", "a0", gate), "a0"), config: { n: 0 } }]);
    const first = kernel.reload("alpha", { source: inline(edition("alpha", "a1", gate), "a1") });
    return { kernel, gate, first };
  }

  it("a new source followed by a plain reload keeps the new source", async () => {
    const { kernel, gate, first } = await busyKernel();
    const edit = kernel.reload("alpha", { source: inline(edition("alpha", "a2", gate), "a2") });
    const plain = kernel.reload("alpha");
    expect(await plain).toBe(await edit);
    await first;
    expect(kernel.use(AlphaC).call("marker")).toBe(`a2|0|g${kernel.activeGeneration("alpha")}`);
  });

  it("a new source and a new config requested together both apply", async () => {
    const { kernel, gate, first } = await busyKernel();
    void kernel.configure("alpha", { n: 7 });
    await kernel.reload("alpha", { source: inline(edition("alpha", "a2", gate), "a2") });
    await first;
    expect(kernel.use(AlphaC).call("marker")).toBe(`a2|7|g${kernel.activeGeneration("alpha")}`);
  });

  it("an edit then a disable leaves the plugin off, and enabling it runs the edit", async () => {
    const { kernel, gate, first } = await busyKernel();
    void kernel.reload("alpha", { source: inline(edition("alpha", "a2", gate), "a2") });
    expect((await kernel.disable("alpha")).status).toBe("committed");
    await first;
    expect(kernel.use(AlphaC).available).toBe(false);
    expect(kernel.describe().plugins[0]).toMatchObject({ source: "a2", status: "disabled" });
    expect((await kernel.enable("alpha")).status).toBe("committed");
    expect(kernel.use(AlphaC).call("marker")).toBe(`a2|0|g${kernel.activeGeneration("alpha")}`);
  });

  it("a disable then a config change leaves the plugin off with the new config", async () => {
    const { kernel, first } = await busyKernel();
    void kernel.disable("alpha");
    expect((await kernel.configure("alpha", { n: 3 })).status).toBe("committed");
    await first;
    expect(kernel.use(AlphaC).available).toBe(false);
    await kernel.enable("alpha");
    expect(kernel.use(AlphaC).call("marker")).toBe(`a1|3|g${kernel.activeGeneration("alpha")}`);
  });

  it("a disable that would strand a consumer is refused and changes nothing", async () => {
    const kernel = new Kernel();
    const gate = { current: Promise.resolve() };
    const consumer = definePlugin({ id: "consumer", version: "1.0.0", requires: [AlphaC], setup() {} });
    await kernel.boot([
      { id: "alpha", source: inline(edition("alpha", "a0", gate), "a0") },
      { id: "consumer", source: inline(consumer) },
    ]);
    const before = kernel.describe();
    const result = await kernel.disable("alpha");
    expect(result.status).toBe("aborted");
    expect(result.error).toMatchObject({ pluginId: "alpha", phase: "prepare", generation: 1 });
    expect(result.error!.cause.message).toContain("consumer");
    expect(kernel.describe()).toEqual(before);
    expect(kernel.entries().find((e) => e.id === "alpha")?.enabled).toBe(true);
  });
});
