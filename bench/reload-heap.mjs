/**
 * reload heap: does a long editing session leak old generations?
 *
 * One file plugin (the ~200-line generated .ts plugin) is reloaded 20 times to warm up (jiti, TypeBox,
 * V8's code caches), the heap is measured after a forced GC, then it is reloaded 200 more times, each with
 * new content so every reload is a real one, and the heap is measured again after a forced GC. Each of
 * the 200 generations' provided object is registered with a FinalizationRegistry; the count of
 * finalizers that ran says how many old generations the collector actually freed (the live one cannot
 * be, so 199 of 200 is the best possible).
 *
 * Run with `node --expose-gc`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapSnapshot } from "node:v8";
import { check, fullGc, hostModules, pluginSource, printChecks, round, sleep, writeResult } from "./lib.mjs";

const WARMUP = 20;
const RELOADS = 200;
const PLUGIN_ID = "bench-text";
const TARGET_GROWTH_MB = 2;
const MB = 1024 * 1024;

if (typeof globalThis.gc !== "function") {
  console.error("reload-heap needs node --expose-gc");
  process.exit(1);
}

const { api, virtualModules } = await hostModules();
const dir = mkdtempSync(join(tmpdir(), "pi-bench-heap-"));
mkdirSync(join(dir, PLUGIN_ID));
const file = join(dir, PLUGIN_ID, "index.ts");
let revision = Math.floor(Date.now() / 1000) * 1000 + 500_000;
writeFileSync(file, pluginSource(++revision, PLUGIN_ID));

const kernel = new api.Kernel({ virtualModules });
const errors = [];
kernel.on("kernel:error", (e) => errors.push(api.formatLifecycleError(e)));
const boot = await kernel.boot([{ id: PLUGIN_ID, source: { kind: "file", path: file } }]);
if (!boot.ok || boot.errors.length > 0) {
  console.error("boot failed:", boot.errors.map((e) => api.formatLifecycleError(e)).join("\n"), boot.configErrors);
  process.exit(1);
}
const TextContract = api.defineContract({ id: "bench/text", version: "1.0.0", kind: "many", gate: "overlap" });
const slot = kernel.useAll(TextContract).slot(`${PLUGIN_ID}#text`);

let collected = 0;
const registry = new FinalizationRegistry(() => {
  collected++;
});

/** Writes new content, reloads, checks the new code serves, and (when tracking) registers its provider. */
async function reloadOnce(track) {
  const rev = ++revision;
  writeFileSync(file, pluginSource(rev, PLUGIN_ID));
  const result = await kernel.reload(PLUGIN_ID);
  if (result.status !== "committed")
    throw new Error(`reload ${rev}: ${result.status} ${result.error ? api.formatLifecycleError(result.error) : ""}`);
  // Exercise the provider a little, as a session would, without keeping anything it returns.
  if (slot.call("revision") !== rev) throw new Error(`reload ${rev} did not take effect`);
  slot.call("summary", "the quick brown fox jumps over the lazy dog and the dog sleeps");
  if (track) registry.register(slot.peek(), rev);
}

/** Heap usage after V8's memory-reducing collection (see below for why it differs from gc()). */
async function memoryReducingGc() {
  const snapshot = getHeapSnapshot();
  snapshot.resume();
  await new Promise((resolve) => snapshot.on("end", resolve));
  await fullGc(4);
  return process.memoryUsage();
}

for (let i = 0; i < WARMUP; i++) await reloadOnce(false);
await kernel.idle();
await fullGc();
const before = process.memoryUsage();
const beforeReducing = await memoryReducingGc();

// Every 50 reloads: a forced GC and a heap reading, to show whether growth is a step or a slope.
const curve = [];
let reloadMs = 0;
for (let i = 0; i < RELOADS; i++) {
  const started = process.hrtime.bigint();
  await reloadOnce(true);
  reloadMs += Number(process.hrtime.bigint() - started) / 1e6;
  if (i % 50 === 49 && i < RELOADS - 1) {
    await kernel.idle();
    await fullGc(3);
    curve.push({
      reloads: i + 1,
      heapGrowthMb: round((process.memoryUsage().heapUsed - before.heapUsed) / MB, 3),
      collected,
    });
  }
}
await kernel.idle();
await fullGc(10);
await sleep(100);
await fullGc(4);
const after = process.memoryUsage();
const live = kernel.liveGenerations(PLUGIN_ID);
const collectedAtEnd = collected;
curve.push({ reloads: RELOADS, heapGrowthMb: round((after.heapUsed - before.heapUsed) / MB, 3), collected });

// globalThis.gc() is a full mark-compact but not a memory-reducing one: V8 keeps its compilation cache
// (source text → compiled script, one entry per distinct plugin source evaluated by jiti) across it.
// Taking a heap snapshot runs V8's "collect all available garbage", which also flushes those caches, as
// V8 does by itself under memory pressure. Reported as information next to the plain reading.
const afterReducing = await memoryReducingGc();

await kernel.shutdown();
rmSync(dir, { recursive: true, force: true });
if (errors.length > 0) {
  console.error(`kernel reported errors:\n${errors.join("\n")}`);
  process.exit(1);
}

const growthMb = (after.heapUsed - before.heapUsed) / MB;
const checks = [
  check("heapUsed growth over 200 reloads", growthMb, "MB", TARGET_GROWTH_MB),
  check("old generations collected (of 199)", collectedAtEnd, "gen", RELOADS - 1, "higher"),
  check("growth after memory-reducing GC", (afterReducing.heapUsed - beforeReducing.heapUsed) / MB, "MB", null),
  check("mean reload time (direct)", reloadMs / RELOADS, "ms", null),
];
console.log(`reload-heap: ${RELOADS} reloads after ${WARMUP} warm-ups; ${live} generation(s) alive at the end`);
console.log(
  `  heapUsed ${round(before.heapUsed / MB)} MB → ${round(after.heapUsed / MB)} MB; ` +
    `finalized ${collectedAtEnd} of ${RELOADS} tracked generations`,
);
console.log(`  growth every 50 reloads (MB): ${curve.map((c) => c.heapGrowthMb).join(" → ")}`);
printChecks(checks);
writeResult("reload-heap", {
  config: { warmup: WARMUP, reloads: RELOADS },
  heapUsedBeforeMb: round(before.heapUsed / MB, 3),
  heapUsedAfterMb: round(after.heapUsed / MB, 3),
  heapGrowthMb: round(growthMb, 3),
  heapUsedAfterMemoryReducingGcMb: round(afterReducing.heapUsed / MB, 3),
  heapUsedBeforeMemoryReducingGcMb: round(beforeReducing.heapUsed / MB, 3),
  heapGrowthAfterMemoryReducingGcMb: round((afterReducing.heapUsed - beforeReducing.heapUsed) / MB, 3),
  curve,
  externalGrowthMb: round((after.external - before.external) / MB, 3),
  tracked: RELOADS,
  collected: collectedAtEnd,
  liveGenerationsAtEnd: live,
  meanReloadMs: round(reloadMs / RELOADS),
  checks,
});
