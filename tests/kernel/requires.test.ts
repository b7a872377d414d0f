/**
 * `requires` is binding: a plugin that uses a contract it does not list is refused at prepare, with a
 * lifecycle error naming the plugin and the contract; listing it (optional or not) makes the use work.
 */
import { describe, expect, it } from "vitest";
import { formatLifecycleError } from "../../hosts/kernel-report.js";
import { defineContract, definePlugin } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { inline } from "./helpers.js";

interface Clock {
  now(): number;
}
const ClockC = defineContract<Clock>({
  id: "test/requires-clock",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  methods: { now: "sync" },
});

const clock = definePlugin({
  id: "clock",
  version: "1.0.0",
  provides: [ClockC],
  setup: (ctx) => ctx.provide(ClockC, { now: () => 7 }),
});

function reader(listed: boolean) {
  return definePlugin({
    id: "reader",
    version: "1.0.0",
    requires: listed ? [{ contract: ClockC, optional: true }] : [],
    setup(ctx) {
      ctx.use(ClockC);
    },
  });
}

describe("requires", () => {
  it("refuses ctx.use of an unlisted contract at prepare, naming the plugin and the contract", async () => {
    const kernel = new Kernel();
    const boot = await kernel.boot([
      { id: "clock", source: inline(clock) },
      { id: "reader", source: inline(reader(false)) },
    ]);
    expect(boot.errors).toHaveLength(1);
    expect(boot.errors[0].phase).toBe("prepare");
    expect(formatLifecycleError(boot.errors[0])).toContain(
      'plugin "reader" calls ctx.use("test/requires-clock") but does not list "test/requires-clock" in requires',
    );
    await kernel.shutdown();
  });

  it("lets a plugin use a contract it lists", async () => {
    const kernel = new Kernel();
    const boot = await kernel.boot([
      { id: "clock", source: inline(clock) },
      { id: "reader", source: inline(reader(true)) },
    ]);
    expect(boot.errors).toEqual([]);
    expect(kernel.use(ClockC).api.now()).toBe(7);
    await kernel.shutdown();
  });
});
