import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { endProcess } from "../../hosts/processes.js";
import { defineContract, definePlugin, Kernel, type PluginContext } from "../../kernel/index.js";

const Probe = defineContract<{ ping(): string }>({
  id: "test/spawn-probe",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  methods: { ping: "sync" },
});

/** Whether any process of the group is still running (zombies waiting to be reaped do not count). */
function groupAlive(pgid: number): boolean {
  const rows = spawnSync("ps", ["-e", "-o", "pgid=,stat="], { encoding: "utf8" }).stdout.split("\n");
  return rows.some((row) => {
    const [group, stat] = row.trim().split(/\s+/);
    return Number(group) === pgid && stat !== undefined && !stat.startsWith("Z");
  });
}

/**
 * Whether the group is gone within `withinMs`: a SIGKILL is delivered at once, but a killed process
 * leaves the process table a moment later, so a loaded machine may still list it right after the kill.
 */
async function groupGone(pgid: number, withinMs = 2_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe("ctx.spawn", () => {
  it("a detached child is retired with its whole process group, grandchildren included", async () => {
    let ctxRef: PluginContext | undefined;
    const kernel = new Kernel({ disposeTimeoutMs: 5_000, endProcess });
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
    const child = ctxRef!.spawn("bash", ["-c", "trap '' TERM; sleep 1000 & sleep 1000 & wait"], {
      detached: true,
      stdio: "ignore",
    });
    const pgid = child.pid!;
    expect(groupAlive(pgid)).toBe(true);
    await kernel.disable("spawner");
    expect(await groupGone(pgid)).toBe(true);
  });

  it("children that already exited leave nothing to dispose", async () => {
    let ctxRef: PluginContext | undefined;
    const errors: unknown[] = [];
    const kernel = new Kernel({ disposeTimeoutMs: 200, endProcess });
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
      const child = ctxRef!.spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
      await new Promise((resolve) => child.once("exit", resolve));
    }
    const result = await kernel.disable("spawner");
    expect(result.status).toBe("committed");
    expect(errors).toEqual([]);
  });
});
