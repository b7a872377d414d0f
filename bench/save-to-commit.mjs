/**
 * save → commit: how long after a user saves a plugin file does the new code serve?
 *
 * A ~200-line TypeScript plugin (TypeBox config schema, functions, a class) is booted from a temp folder
 * as a `{ kind: "file" }` source, with `watchPlugins(kernel)` running. Each save writes new content
 * (a changed constant) with writeFileSync; the clock runs from just before the write to the
 * `kernel:commit` event for that plugin, and the next save waits for the commit and for the kernel to go
 * idle. Then the watcher is closed and the same kind of edit is timed through `kernel.reload(id)`
 * directly (write + reload → commit), so the watcher's own share (chokidar's awaitWriteFinish
 * stabilisation plus the watcher's debounce) is the difference of the two.
 *
 * Every save gets a revision number never used before, so jiti's fs cache never has the transpiled file:
 * both series pay a real transpile, as an editing user does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check, hostModules, pluginSource, printChecks, round, sleep, summarize, writeResult } from "./lib.mjs";

const WARMUP = 5;
const SAVES = 50;
const PLUGIN_ID = "bench-text";
const TARGET_P50_MS = 100;
const TARGET_P95_MS = 300;
const COMMIT_TIMEOUT_MS = 10_000;

const { api, virtualModules } = await hostModules();
const dir = mkdtempSync(join(tmpdir(), "pi-bench-save-"));
mkdirSync(join(dir, PLUGIN_ID));
const file = join(dir, PLUGIN_ID, "index.ts");
let revision = Math.floor(Date.now() / 1000) * 1000; // unique across runs too: the jiti fs cache persists
writeFileSync(file, pluginSource(++revision, PLUGIN_ID));

const kernel = new api.Kernel({ virtualModules });
const errors = [];
kernel.on("kernel:error", (e) =>
  errors.push(api.formatLifecycleError ? api.formatLifecycleError(e) : String(e?.cause)),
);
const boot = await kernel.boot([{ id: PLUGIN_ID, source: { kind: "file", path: file } }]);
if (!boot.ok || boot.errors.length > 0) {
  console.error("boot failed:", boot.errors.map((e) => api.formatLifecycleError(e)).join("\n"), boot.configErrors);
  process.exit(1);
}
const TextContract = api.defineContract({ id: "bench/text", version: "1.0.0", kind: "many", gate: "overlap" });
const slot = kernel.useAll(TextContract).slot(`${PLUGIN_ID}#text`);

/** Resolves with the time of the next commit of the plugin (or rejects after a timeout). */
function nextCommit() {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no kernel:commit within ${COMMIT_TIMEOUT_MS} ms; errors: ${errors.join("; ")}`));
    }, COMMIT_TIMEOUT_MS);
    const off = kernel.on("kernel:commit", (payload) => {
      if (payload?.pluginId !== PLUGIN_ID) return;
      const at = process.hrtime.bigint();
      clearTimeout(timer);
      off();
      resolve(at);
    });
  });
}

/** Saves a new revision and returns ms from just before the write to its commit. */
async function timedSave(trigger) {
  const rev = ++revision;
  const committed = nextCommit();
  const start = process.hrtime.bigint();
  writeFileSync(file, pluginSource(rev, PLUGIN_ID));
  if (trigger) void trigger();
  const at = await committed;
  await kernel.idle();
  const served = slot.call("revision");
  if (served !== rev) throw new Error(`after the commit the handle serves revision ${served}, expected ${rev}`);
  return Number(at - start) / 1e6;
}

// ── through the watcher ───────────────────────────────────────────────────────────────────────────
const watcher = await api.watchPlugins(kernel);
const watched = [];
for (let i = 0; i < WARMUP + SAVES; i++) {
  const ms = await timedSave();
  if (i >= WARMUP) watched.push(ms);
  await sleep(30 + Math.random() * 20); // an editor's saves are never back to back; jitter avoids lock-step
}
await watcher.close();

// ── direct kernel.reload(id), no watcher ──────────────────────────────────────────────────────────
const direct = [];
for (let i = 0; i < WARMUP + SAVES; i++) {
  const ms = await timedSave(() => kernel.reload(PLUGIN_ID));
  if (i >= WARMUP) direct.push(ms);
  await sleep(30 + Math.random() * 20);
}

await kernel.shutdown();
rmSync(dir, { recursive: true, force: true });
if (errors.length > 0) {
  console.error(`kernel reported errors:\n${errors.join("\n")}`);
  process.exit(1);
}

const w = summarize(watched);
const d = summarize(direct);
const checks = [
  check("save→commit p50 (watcher)", w.p50, "ms", TARGET_P50_MS),
  check("save→commit p95 (watcher)", w.p95, "ms", TARGET_P95_MS),
  check("write+reload→commit p50 (direct)", d.p50, "ms", null),
  check("write+reload→commit p95 (direct)", d.p95, "ms", null),
  check("watcher share p50 (watcher − direct)", w.p50 - d.p50, "ms", null),
];
const round2 = (s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, round(v)]));

console.log(
  `save-to-commit: ${SAVES} saves of a ${pluginSource(0).split("\n").length}-line .ts plugin after ${WARMUP} warm-ups`,
);
console.log(`  watcher: p50 ${round(w.p50)} ms, p95 ${round(w.p95)} ms (min ${round(w.min)}, max ${round(w.max)})`);
console.log(`  direct : p50 ${round(d.p50)} ms, p95 ${round(d.p95)} ms (min ${round(d.min)}, max ${round(d.max)})`);
printChecks(checks);
writeResult("save-to-commit", {
  config: {
    warmup: WARMUP,
    saves: SAVES,
    pluginLines: pluginSource(0).split("\n").length,
    watchOptions: "defaults (stabilityMs 50, debounceMs 20)",
  },
  watcher: { ...round2(w), samplesMs: watched.map((v) => round(v)) },
  direct: { ...round2(d), samplesMs: direct.map((v) => round(v)) },
  checks,
});
