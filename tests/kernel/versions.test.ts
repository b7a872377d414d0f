/**
 * Contract versions and cardinality are checked at prepare: a provider outside a consumer's range is
 * refused with an error naming both versions, and a second provider of a `single` contract is refused
 * with an error naming both plugins. Refusal leaves the registry as it was.
 */
import { describe, expect, it } from "vitest";
import { defineContract, definePlugin, type LifecycleError } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { inline, record } from "./helpers.js";

interface Clock {
  now(): string;
}
const ClockC = defineContract<Clock>({
  id: "test/clock",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { now: "function" },
  methods: { now: "sync" },
});

function provider(id: string, version: string, marker = id) {
  return definePlugin({
    id,
    version: "1.0.0",
    provides: [{ contract: ClockC, version }],
    setup(ctx) {
      ctx.provide(ClockC, { now: () => marker });
    },
  });
}

function consumer(range: string) {
  return definePlugin({
    id: "consumer",
    version: "1.0.0",
    requires: [{ contract: ClockC, range }],
    setup() {},
  });
}

describe("contract versions", () => {
  it("refuses at boot a provider outside the consumer's range, naming both versions", async () => {
    const kernel = new Kernel();
    const errors = record<LifecycleError>(kernel, "kernel:error");
    const result = await kernel.boot([
      { id: "clock", source: inline(provider("clock", "2.0.0")) },
      { id: "consumer", source: inline(consumer("^1.0.0")) },
    ]);
    expect(result.errors).toHaveLength(1);
    const error = result.errors[0]!;
    expect(error).toMatchObject({ pluginId: "consumer", phase: "prepare", generation: 1 });
    expect(error.cause.message).toContain("2.0.0");
    expect(error.cause.message).toContain("^1.0.0");
    expect(errors.all).toEqual([error]);
    expect(kernel.describe().plugins.find((p) => p.id === "consumer")?.status).toBe("failed");
  });

  it("refuses at reload a provider that moves outside a consumer's range, and keeps the old one", async () => {
    const kernel = new Kernel();
    await kernel.boot([
      { id: "clock", source: inline(provider("clock", "1.0.0", "v1")) },
      { id: "consumer", source: inline(consumer("^1.0.0")) },
    ]);
    const errors = record<LifecycleError>(kernel, "kernel:error");
    const before = kernel.describe();

    const result = await kernel.reload("clock", { source: inline(provider("clock", "2.0.0", "v2"), "clock@2") });

    expect(result.status).toBe("aborted");
    expect(result.error).toMatchObject({ pluginId: "clock", phase: "prepare", generation: 2 });
    expect(result.error!.cause.message).toContain("2.0.0");
    expect(result.error!.cause.message).toContain("^1.0.0");
    expect(errors.all).toEqual([result.error]);
    expect(kernel.describe()).toEqual(before);
    expect(kernel.use(ClockC).call("now")).toBe("v1");
  });

  it("refuses at reload a consumer whose new range the live provider does not meet", async () => {
    const kernel = new Kernel();
    await kernel.boot([
      { id: "clock", source: inline(provider("clock", "1.4.0")) },
      { id: "consumer", source: inline(consumer("^1.0.0")) },
    ]);
    const before = kernel.describe();
    const result = await kernel.reload("consumer", { source: inline(consumer("^2.0.0"), "consumer@2") });
    expect(result.status).toBe("aborted");
    expect(result.error).toMatchObject({ pluginId: "consumer", phase: "prepare" });
    expect(result.error!.cause.message).toContain("1.4.0");
    expect(result.error!.cause.message).toContain("^2.0.0");
    expect(kernel.describe()).toEqual(before);
  });

  it("accepts a provider whose version is inside the range", async () => {
    const kernel = new Kernel();
    await kernel.boot([
      { id: "clock", source: inline(provider("clock", "1.0.0", "v1")) },
      { id: "consumer", source: inline(consumer("^1.0.0")) },
    ]);
    const result = await kernel.reload("clock", { source: inline(provider("clock", "1.9.3", "v2"), "clock@1.9") });
    expect(result).toEqual({ pluginId: "clock", status: "committed", generation: 2 });
    expect(kernel.use(ClockC).call("now")).toBe("v2");
  });

  it("fails a boot whose host need is met at the wrong version, naming both", async () => {
    const kernel = new Kernel();
    kernel.require(ClockC, "^1.0.0");
    const result = await kernel.boot([{ id: "clock", source: inline(provider("clock", "2.0.0")) }]);
    expect(result.ok).toBe(false);
    const message = result.errors.map((e) => e.cause.message).join("\n");
    expect(message).toContain("2.0.0");
    expect(message).toContain("^1.0.0");
  });
});

describe("single contracts", () => {
  it("refuses a second provider at boot, naming both plugins", async () => {
    const kernel = new Kernel();
    const errors = record<LifecycleError>(kernel, "kernel:error");
    const result = await kernel.boot([
      { id: "clock-a", source: inline(provider("clock-a", "1.0.0")) },
      { id: "clock-b", source: inline(provider("clock-b", "1.0.0")) },
    ]);
    expect(result.errors).toHaveLength(1);
    const error = result.errors[0]!;
    expect(error).toMatchObject({ pluginId: "clock-b", phase: "prepare" });
    expect(error.cause.message).toContain('"clock-a"');
    expect(error.cause.message).toContain('"clock-b"');
    expect(errors.all).toEqual([error]);
    expect(kernel.use(ClockC).call("now")).toBe("clock-a");
  });

  it("refuses a second provider added or reloaded at run time, naming both plugins", async () => {
    const kernel = new Kernel();
    await kernel.boot([
      { id: "clock-a", source: inline(provider("clock-a", "1.0.0")) },
      { id: "other", source: inline(definePlugin({ id: "other", version: "1.0.0", setup() {} })) },
    ]);
    const before = kernel.describe();

    const reloaded = await kernel.reload("other", { source: inline(provider("other", "1.0.0"), "other@2") });
    expect(reloaded.status).toBe("aborted");
    expect(reloaded.error).toMatchObject({ pluginId: "other", phase: "prepare" });
    expect(reloaded.error!.cause.message).toContain('"clock-a"');
    expect(reloaded.error!.cause.message).toContain('"other"');
    expect(kernel.describe()).toEqual(before);

    const added = await kernel.add({ id: "clock-b", source: inline(provider("clock-b", "1.0.0")) });
    expect(added.status).toBe("aborted");
    expect(added.error!.cause.message).toContain('"clock-a"');
    expect(added.error!.cause.message).toContain('"clock-b"');
    expect(kernel.use(ClockC).call("now")).toBe("clock-a");
  });
});
