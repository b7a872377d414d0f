import { describe, expect, it } from "vitest";
import { defineContract, definePlugin, type PluginContext } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";
import { ownedSpawn } from "../../kit/process/owned.js";
import { liveGroupMembers, membersAfterKill } from "../support/process-groups.js";

const Probe = defineContract<{ ping(): string }>({
  id: "test/spawn-probe",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  methods: { ping: "sync" },
});

describe("ownedSpawn", () => {
  it("a detached child is retired with its whole process group, grandchildren included", async () => {
    let ctxRef: PluginContext | undefined;
    const kernel = new Kernel({ disposeTimeoutMs: 5_000 });
    await kernel.boot([
      {
        id: "spawner",
        source: {
          kind: "inline",
          label: "spawner",
          definition: definePlugin({
            id: "spawner",
            version: "1.0.0",
            provides: [Probe],
            setup: (ctx) => ((ctxRef = ctx), ctx.provide(Probe, { ping: () => "pong" })),
          }),
        },
      },
    ]);
    // The grandchildren ignore SIGTERM, so only the group SIGKILL after the grace period ends them.
    const child = ownedSpawn(ctxRef!, "bash", ["-c", "trap '' TERM; sleep 1000 & sleep 1000 & wait"], {
      detached: true,
      stdio: "ignore",
    });
    const pgid = child.pid!;
    expect(liveGroupMembers(pgid).length).toBeGreaterThan(0);
    await kernel.disable("spawner");
    expect(await membersAfterKill(pgid)).toEqual([]);
  });

  it("children that already exited leave nothing to dispose", async () => {
    let ctxRef: PluginContext | undefined;
    const errors: unknown[] = [];
    const kernel = new Kernel({ disposeTimeoutMs: 200 });
    kernel.on("kernel:error", (e) => errors.push(e));
    await kernel.boot([
      {
        id: "spawner",
        source: {
          kind: "inline",
          label: "spawner",
          definition: definePlugin({
            id: "spawner",
            version: "1.0.0",
            provides: [Probe],
            setup: (ctx) => ((ctxRef = ctx), ctx.provide(Probe, { ping: () => "pong" })),
          }),
        },
      },
    ]);
    for (let i = 0; i < 20; i++) {
      const child = ownedSpawn(ctxRef!, process.execPath, ["-e", "0"], { stdio: "ignore" });
      await new Promise((resolve) => child.once("exit", resolve));
    }
    const result = await kernel.disable("spawner");
    expect(result.status).toBe("committed");
    expect(errors).toEqual([]);
  });
});
