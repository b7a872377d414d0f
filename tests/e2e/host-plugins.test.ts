/**
 * `host/plugins` as the CLI and SDK compose it (needs `npm run build`): the host's own plugin serves the
 * table of the default distribution, built-ins named as such, a disabled entry shown as disabled, and
 * the host's own plugin left out.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { HostPluginsContract, readPluginTable } from "../../contracts/host-plugins.js";
import { composeKernel, resolveDistribution } from "../../hosts/compose.js";
import type { Kernel } from "../../kernel/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

describe("host/plugins in a composed kernel", () => {
  it("lists the default distribution in its order, with sources, states and contracts", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "pi-host-plugins-agent-"));
    const cwd = mkdtempSync(join(tmpdir(), "pi-host-plugins-cwd-"));
    const distribution = await resolveDistribution({
      cwd,
      agentDir,
      defaultFile: join(ROOT, "plugins.json"),
      builtinDir: join(ROOT, "dist", "plugins"),
    });
    const composed = await composeKernel(distribution, join(ROOT, "dist", "plugins"));
    kernel = composed.kernel;
    const table = readPluginTable(kernel.use(HostPluginsContract));
    expect(table).toBeDefined();
    expect(table!.map((p) => p.id)).toEqual(distribution.entries.map((e) => e.id));
    const byId = new Map(table!.map((p) => [p.id, p]));
    expect(byId.get("session-jsonl")).toMatchObject({
      source: { kind: "built-in", label: "session-jsonl" },
      enabled: true,
      state: "active",
      generation: 1,
    });
    expect(byId.get("session-jsonl")!.provides.map((c) => c.contract)).toContain("session/store");
    expect(byId.get("session-sqlite")).toMatchObject({ enabled: false, state: "disabled", generation: undefined });
    expect(table!.every((p) => p.lastError === undefined)).toBe(true);
  });
});
