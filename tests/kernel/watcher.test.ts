import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as api from "../../kernel/index.js";
import { hashSource } from "../../hosts/source-policy.js";
import type { OperationResult } from "../../kernel/index.js";
import { Kernel } from "../../hosts/host-kernel.js";
import { watchPlugins, type PluginWatcher } from "../../hosts/watch.js";

/** Source of a file plugin that serves `marker` through the fixture contract. */
function pluginSource(marker: string): string {
  return `import { defineContract, definePlugin } from "pi-host";
const Marker = defineContract<{ get(): string }>({ id: "test/marker", version: "1.0.0", kind: "many", gate: "overlap" });
export default definePlugin({
  id: "edited",
  version: "1.0.0",
  provides: [Marker],
  setup(ctx) {
    ctx.provide(Marker, { get: () => ${JSON.stringify(marker)} });
  },
});
`;
}

const MarkerContract = api.defineContract<{ get(): string }>({
  id: "test/marker",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  methods: { get: "sync" },
});

describe("watch mode", () => {
  let dir: string;
  let file: string;
  let sentinelFile: string;
  let kernel: Kernel;
  let watcher: PluginWatcher;
  let results: OperationResult[];
  let sentinelCount = 0;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "pi-watch-"));
    mkdirSync(join(dir, "edited"));
    mkdirSync(join(dir, "sentinel"));
    file = join(dir, "edited", "index.ts");
    sentinelFile = join(dir, "sentinel", "index.ts");
    writeFileSync(file, pluginSource("v0"));
    writeFileSync(sentinelFile, pluginSource("s0").replace('"edited"', '"sentinel"'));
    kernel = new Kernel({ hashSource, virtualModules: { "pi-host": api } });
    const boot = await kernel.boot([
      { id: "edited", source: { kind: "file", path: file } },
      { id: "sentinel", source: { kind: "file", path: sentinelFile } },
    ]);
    expect(boot.errors).toEqual([]);
    results = [];
    watcher = await watchPlugins(kernel, { onReload: (r) => results.push(r) });
  });

  afterEach(async () => {
    await watcher.close();
    await kernel.shutdown();
  });

  /** Resolves with the next reload result the watcher reports for `pluginId`. */
  function nextResult(pluginId: string): Promise<OperationResult> {
    const seen = results.length;
    return new Promise((resolve) => {
      const poll = (): void => {
        const found = results.slice(seen).find((r) => r.pluginId === pluginId);
        if (found) resolve(found);
        else setImmediate(poll);
      };
      poll();
    });
  }

  /**
   * Saves the sentinel plugin and waits for its commit. Its save is later than every save before it, so
   * once it has committed, the watcher has reported everything those earlier saves caused.
   */
  async function settle(): Promise<void> {
    const done = nextResult("sentinel");
    writeFileSync(sentinelFile, pluginSource(`s${++sentinelCount}`).replace('"edited"', '"sentinel"'));
    expect((await done).status).toBe("committed");
  }

  const served = (): string[] =>
    kernel
      .useAll(MarkerContract)
      .list()
      .filter((h) => h.pluginId === "edited")
      .map((h) => h.call("get"));
  const commitsOfEdited = (): OperationResult[] =>
    results.filter((r) => r.pluginId === "edited" && r.status === "committed");

  it("an in-place write gives exactly one commit", async () => {
    const first = nextResult("edited");
    writeFileSync(file, pluginSource("in-place"));
    expect((await first).status).toBe("committed");
    await settle();
    expect(commitsOfEdited()).toHaveLength(1);
    expect(served()).toEqual(["in-place"]);
  });

  it("a temp-file + rename save gives exactly one commit", async () => {
    const first = nextResult("edited");
    const temp = join(dir, "edited", "index.ts.tmp-4242");
    writeFileSync(temp, pluginSource("renamed"));
    renameSync(temp, file);
    expect((await first).status).toBe("committed");
    await settle();
    expect(commitsOfEdited()).toHaveLength(1);
    expect(served()).toEqual(["renamed"]);
  });

  it("a burst of 20 writes gives exactly one commit, of the last content", async () => {
    const first = nextResult("edited");
    for (let i = 1; i <= 20; i++) writeFileSync(file, pluginSource(`burst-${i}`));
    expect((await first).status).toBe("committed");
    await settle();
    expect(commitsOfEdited()).toHaveLength(1);
    expect(served()).toEqual(["burst-20"]);
  });

  it("re-saving identical content commits nothing", async () => {
    const generation = kernel.activeGeneration("edited");
    const first = nextResult("edited");
    writeFileSync(file, pluginSource("v0"));
    expect((await first).status).toBe("noop");
    await settle();
    expect(commitsOfEdited()).toHaveLength(0);
    expect(kernel.activeGeneration("edited")).toBe(generation);
    expect(served()).toEqual(["v0"]);
  });
});
