/**
 * The watcher keeps up with folders coming and going: a plugin folder moved away and back is watched
 * again (chokidar forgets it), and a watcher with no source folders at all still starts.
 */
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as api from "../../kernel/index.js";
import { hashSource } from "../../hosts/source-policy.js";
import type { OperationResult } from "../../kernel/index.js";
import { Kernel } from "../../hosts/host-kernel.js";
import { watchPlugins, type PluginWatcher } from "../../hosts/watch.js";

const MarkerContract = api.defineContract<{ get(): string }>({
  id: "test/marker",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  methods: { get: "sync" },
});

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let kernel: Kernel | undefined;
let watcher: PluginWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  await kernel?.shutdown();
  watcher = undefined;
  kernel = undefined;
});

/** Waits (generously: a shared machine) until `found` holds; false when it never did. */
async function eventually(found: () => boolean, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!found()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

describe("watcher and moving folders", () => {
  it("a plugin folder moved away and back is watched again: a save after the return reloads it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-watch-moved-"));
    const folder = join(dir, "edited");
    mkdirSync(folder);
    const file = join(folder, "index.ts");
    writeFileSync(file, pluginSource("v0"));
    const k = (kernel = new Kernel({ hashSource, virtualModules: { "pi-host": api } }));
    expect((await k.boot([{ id: "edited", source: { kind: "file", path: file } }])).errors).toEqual([]);
    const results: OperationResult[] = [];
    watcher = await watchPlugins(k, { onReload: (r) => results.push(r), lostFolderPollMs: 20 });
    const served = () =>
      k
        .useAll(MarkerContract)
        .list()
        .map((h) => h.call("get"));

    renameSync(folder, join(dir, "away"));
    await sleep(300);
    renameSync(join(dir, "away"), folder);
    await sleep(300);
    writeFileSync(file, pluginSource("after-return"));
    expect(await eventually(() => served().includes("after-return"))).toBe(true);
    expect(results.some((r) => r.status === "committed")).toBe(true);
  }, 30_000);

  it("a plugin folder edited while moved away is reloaded when it comes back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-watch-moved-"));
    const folder = join(dir, "edited");
    mkdirSync(folder);
    const file = join(folder, "index.ts");
    writeFileSync(file, pluginSource("v0"));
    const k = (kernel = new Kernel({ hashSource, virtualModules: { "pi-host": api } }));
    expect((await k.boot([{ id: "edited", source: { kind: "file", path: file } }])).errors).toEqual([]);
    watcher = await watchPlugins(k, { lostFolderPollMs: 20 });
    const served = () =>
      k
        .useAll(MarkerContract)
        .list()
        .map((h) => h.call("get"));

    renameSync(folder, join(dir, "away"));
    await sleep(300);
    writeFileSync(join(dir, "away", "index.ts"), pluginSource("edited-away"));
    renameSync(join(dir, "away"), folder);
    expect(await eventually(() => served().includes("edited-away"))).toBe(true);
  }, 30_000);

  it("with no plugin loaded from a source file, the watcher still starts and watches nothing", async () => {
    const k = (kernel = new Kernel({ hashSource }));
    await k.boot([]);
    const started = await Promise.race([watchPlugins(k), sleep(10_000).then(() => "never started" as const)]);
    expect(started).not.toBe("never started");
    watcher = started as PluginWatcher;
    expect(watcher.folders()).toEqual([]);
  });
});
