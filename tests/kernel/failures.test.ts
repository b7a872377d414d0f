/**
 * A failure at any phase aborts the reload: the old generation keeps serving, `describe()` is exactly
 * what it was, and the failure comes back as `{ pluginId, phase, generation, cause }` — both as the
 * operation's result and as the `kernel:error` event, never as a rejection.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import {
  DeclareOnlyError,
  defineContract,
  definePlugin,
  type LifecycleError,
  type OperationResult,
  type Phase,
} from "../../kernel/index.js";
import { Kernel } from "../../hosts/host-kernel.js";
import { SchemaError } from "../../hosts/plugin-schema.js";
import { inline, record } from "./helpers.js";

interface Marker {
  marker(): string;
}
const MarkerC = defineContract<Marker>({
  id: "test/marker",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { marker: "function" },
  methods: { marker: "sync" },
});

interface Echo {
  echo(text: string): string;
}
const EchoC = defineContract<Echo>({
  id: "test/echo",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { echo: "function" },
  methods: { echo: "sync" },
});

const echoPlugin = definePlugin({
  id: "echo",
  version: "1.0.0",
  provides: [EchoC],
  setup(ctx) {
    ctx.provide(EchoC, { echo: (text: string) => text });
  },
});

const StateV1 = Type.Object({ count: Type.Number() });

/** A well-behaved plugin with state and a listener, so describe() has something to compare. */
function good(marker: string, extra: Partial<Parameters<typeof definePlugin>[0]> = {}) {
  return definePlugin({
    id: "subject",
    version: "1.0.0",
    provides: [MarkerC],
    requires: [EchoC],
    config: Type.Object({ level: Type.Number({ default: 1 }) }),
    state: { version: 1, schema: StateV1, initial: () => ({ count: 7 }) },
    setup(ctx) {
      ctx.on("test:ping", () => {});
      ctx.provide(MarkerC, { marker: () => `${marker}:${(ctx.getState() as { count: number }).count}` });
    },
    ...extra,
  });
}

/** Boots echo + subject (generation 1) and returns what every failure case checks against. */
async function bootSubject() {
  const kernel = new Kernel();
  const boot = await kernel.boot([
    { id: "echo", source: inline(echoPlugin) },
    { id: "subject", source: inline(good("v1"), "subject@1") },
  ]);
  expect(boot.errors).toEqual([]);
  return kernel;
}

/** Runs `op`, expects it aborted at `phase`, with the event equal to the result, and nothing changed. */
async function expectAborted(
  kernel: Kernel,
  op: () => Promise<OperationResult>,
  phase: Phase,
  generation: number,
): Promise<LifecycleError> {
  const errors = record<LifecycleError>(kernel, "kernel:error");
  const before = kernel.describe();
  const serving = kernel.use(MarkerC).call("marker");
  const activeBefore = kernel.activeGeneration("subject");

  const result = await op();

  expect(result.status).toBe("aborted");
  expect(result.error).toBeDefined();
  const error = result.error!;
  expect(Object.keys(error).sort()).toEqual(["cause", "generation", "phase", "pluginId"]);
  expect(error).toMatchObject({ pluginId: "subject", phase, generation });
  expect(error.cause).toBeInstanceOf(Error);
  expect(errors.all).toHaveLength(1);
  expect(errors.all[0]).toBe(error);
  expect(kernel.describe()).toEqual(before);
  expect(kernel.activeGeneration("subject")).toBe(activeBefore);
  expect(kernel.use(MarkerC).call("marker")).toBe(serving);
  expect(kernel.liveGenerations("subject")).toBe(1);
  errors.off();
  return error;
}

describe("failures at load (file plugins)", () => {
  let dir: string;
  let pluginFile: string;
  let kernel: Kernel;

  const goodSource = (marker: string) => `
    import { definePlugin } from "pi-host";
    import { MarkerC } from "test-contracts";
    export default definePlugin({
      id: "subject",
      version: "1.0.0",
      provides: [MarkerC],
      setup(ctx) {
        ctx.provide(MarkerC, { marker: () => ${JSON.stringify(marker)} });
      },
    });
  `;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pi-host-failures-"));
    pluginFile = join(dir, "subject.ts");
    writeFileSync(pluginFile, goodSource("file-v1"));
    kernel = new Kernel({
      virtualModules: { "pi-host": await import("../../kernel/index.js"), "test-contracts": { MarkerC } },
    });
    const boot = await kernel.boot([{ id: "subject", source: { kind: "file", path: pluginFile } }]);
    expect(boot.errors).toEqual([]);
    expect(kernel.use(MarkerC).call("marker")).toBe("file-v1");
  });

  afterAll(async () => {
    await kernel.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it("aborts on a syntax error", async () => {
    writeFileSync(
      pluginFile,
      `import { definePlugin } from "pi-host";\nexport default definePlugin({ id: "subject", version: "1.0.0", setup(ctx) { ctx.provide( } });\n`,
    );
    const error = await expectAborted(kernel, () => kernel.reload("subject"), "load", 2);
    expect(error.cause.message).toMatch(/unexpected|expected|syntax/i);
  });

  it("aborts on a top-level throw", async () => {
    writeFileSync(
      pluginFile,
      `import { definePlugin } from "pi-host";\nthrow new Error("boom at import");\nexport default definePlugin({ id: "subject", version: "1.0.0", setup() {} });\n`,
    );
    const error = await expectAborted(kernel, () => kernel.reload("subject"), "load", 3);
    expect(error.cause.message).toContain("boom at import");
  });

  it("aborts when the module exports no plugin", async () => {
    writeFileSync(pluginFile, `export default 42;\n`);
    await expectAborted(kernel, () => kernel.reload("subject"), "load", 4);
  });

  it("recovers once the file is fixed", async () => {
    writeFileSync(pluginFile, goodSource("file-v2"));
    const result = await kernel.reload("subject");
    expect(result).toEqual({ pluginId: "subject", status: "committed", generation: 5 });
    expect(kernel.use(MarkerC).call("marker")).toBe("file-v2");
  });
});

describe("failures at prepare", () => {
  it("aborts when setup throws", async () => {
    const kernel = await bootSubject();
    const bad = good("v2", {
      setup() {
        throw new Error("setup exploded");
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "prepare",
      2,
    );
    expect(error.cause.message).toBe("setup exploded");
  });

  it("aborts when setup reads a file with a callback", async () => {
    const kernel = await bootSubject();
    let readDone!: () => void;
    const read = new Promise<void>((resolve) => (readDone = resolve));
    const bad = good("v2", {
      setup() {
        readFile(__filename, () => readDone());
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "prepare",
      2,
    );
    expect(error.cause).toBeInstanceOf(DeclareOnlyError);
    expect(error.cause.message).toContain("FSREQCALLBACK");
    await read;
  });

  it("aborts when setup starts a timer", async () => {
    const kernel = await bootSubject();
    let timer: NodeJS.Timeout | undefined;
    const bad = good("v2", {
      setup() {
        timer = setTimeout(() => {}, 60_000);
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "prepare",
      2,
    );
    clearTimeout(timer);
    expect(error.cause).toBeInstanceOf(DeclareOnlyError);
    expect(error.cause.message).toContain("Timeout");
  });

  it("aborts when setup spawns a child process", async () => {
    const kernel = await bootSubject();
    let child: ChildProcess | undefined;
    const bad = good("v2", {
      setup() {
        child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "prepare",
      2,
    );
    expect(error.cause).toBeInstanceOf(DeclareOnlyError);
    expect(error.cause.message).toContain("PROCESSWRAP");
    if (child!.exitCode === null) await new Promise((resolve) => child!.once("exit", resolve));
  });

  it("aborts when setup calls another service through a handle", async () => {
    const kernel = await bootSubject();
    const bad = good("v2", {
      setup(ctx) {
        ctx.use(EchoC).call("echo", "hello from setup");
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "prepare",
      2,
    );
    expect(error.cause).toBeInstanceOf(DeclareOnlyError);
    expect(error.cause.message).toContain("test/echo");
  });

  it("aborts when setup acts through its context (emit)", async () => {
    const kernel = await bootSubject();
    const bad = good("v2", {
      setup(ctx) {
        ctx.emit("test:ping");
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "prepare",
      2,
    );
    expect(error.cause).toBeInstanceOf(DeclareOnlyError);
  });

  it("aborts on a version mismatch with a requirement", async () => {
    const kernel = await bootSubject();
    const bad = good("v2", { requires: [{ contract: EchoC, range: "^3.0.0" }] });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "prepare",
      2,
    );
    expect(error.cause.message).toContain("^3.0.0");
    expect(error.cause.message).toContain("1.0.0");
  });

  it("aborts on config that fails the schema", async () => {
    const kernel = await bootSubject();
    const error = await expectAborted(kernel, () => kernel.configure("subject", { level: "high" }), "prepare", 2);
    expect(error.cause).toBeInstanceOf(SchemaError);
    expect((error.cause as SchemaError).field).toBe("config.level");
  });
});

describe("failures at migrate", () => {
  it("aborts when migrate throws", async () => {
    const kernel = await bootSubject();
    const bad = good("v2", {
      state: {
        version: 2,
        schema: StateV1,
        initial: () => ({ count: 0 }),
        migrate: () => {
          throw new Error("cannot migrate");
        },
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "migrate",
      2,
    );
    expect(error.cause.message).toBe("cannot migrate");
    expect(kernel.use(MarkerC).call("marker")).toBe("v1:7");
  });

  it("aborts when migrate returns state that fails the new schema", async () => {
    const kernel = await bootSubject();
    const bad = good("v2", {
      state: {
        version: 2,
        schema: Type.Object({ total: Type.Number() }),
        initial: () => ({ total: 0 }),
        migrate: (previous: unknown) => ({ total: String((previous as { count: number }).count) }),
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "migrate",
      2,
    );
    expect(error.cause).toBeInstanceOf(SchemaError);
    expect((error.cause as SchemaError).field).toBe("state.total");
    expect(kernel.use(MarkerC).call("marker")).toBe("v1:7");
  });

  it("aborts when the state version changes without a migrate", async () => {
    const kernel = await bootSubject();
    const bad = good("v2", { state: { version: 2, schema: StateV1, initial: () => ({ count: 0 }) } });
    await expectAborted(kernel, () => kernel.reload("subject", { source: inline(bad, "subject@2") }), "migrate", 2);
  });
});

describe("failures at commit", () => {
  it("aborts when an effect fails to start, undoing the ones already started", async () => {
    const kernel = await bootSubject();
    const started: string[] = [];
    const bad = good("v2", {
      setup(ctx) {
        ctx.effect("first", () => {
          started.push("first");
          return () => void started.push("first disposed");
        });
        ctx.effect("second", () => {
          throw new Error("port in use");
        });
        ctx.provide(MarkerC, { marker: () => "v2" });
      },
    });
    const error = await expectAborted(
      kernel,
      () => kernel.reload("subject", { source: inline(bad, "subject@2") }),
      "commit",
      2,
    );
    expect(error.cause.message).toContain("port in use");
    expect(started).toEqual(["first", "first disposed"]);
  });
});

describe("after a failure", () => {
  it("the next good reload commits and carries the untouched state", async () => {
    const kernel = await bootSubject();
    const bad = good("v2", {
      setup() {
        throw new Error("nope");
      },
    });
    expect((await kernel.reload("subject", { source: inline(bad, "subject@2") })).status).toBe("aborted");
    const result = await kernel.reload("subject", { source: inline(good("v3"), "subject@3") });
    expect(result).toEqual({ pluginId: "subject", status: "committed", generation: 3 });
    expect(kernel.use(MarkerC).call("marker")).toBe("v3:7");
  });

  it("a plain reload after a rejected one reloads the serving source and config, not the rejected ones", async () => {
    const kernel = await bootSubject();
    const entriesBefore = kernel.entries();
    const bad = good("v2", {
      state: {
        version: 2,
        schema: StateV1,
        initial: () => ({ count: 0 }),
        migrate: () => {
          throw new Error("cannot migrate");
        },
      },
    });
    expect((await kernel.reload("subject", { source: inline(bad, "subject@2") })).status).toBe("aborted");
    expect(kernel.entries()).toEqual(entriesBefore);
    const result = await kernel.reload("subject");
    expect(result).toEqual({ pluginId: "subject", status: "committed", generation: 3 });
    expect(kernel.use(MarkerC).call("marker")).toBe("v1:7");
    expect(kernel.describe().plugins.find((p) => p.id === "subject")?.source).toBe("subject@1");
  });
});
