/**
 * Runs every benchmark in sequence, each in its own `node --expose-gc` child process (so one cannot warm
 * up or pollute the heap of the next), then prints one table: each number next to its target, PASS/MISS.
 *
 *   npm run bench            (at the repository root: builds, then runs this)
 *   node bench/run.mjs [name ...]
 *
 * Installs bench's own dependencies (pi, for the side-by-side numbers) with `npm ci --prefix bench` when
 * bench/node_modules is missing; if that fails, the pi comparison is skipped with a note. Exits 1 when a
 * benchmark crashed; a missed target is reported, never an exit code (the numbers are noisy by nature).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_DIR, PI_CLI, RESULTS_DIR, ROOT } from "./lib.mjs";

const ALL = [
  "save-to-commit",
  "reload-heap",
  "handle-call",
  "cold-start",
  "providers",
  "sessions",
  "session-cli",
  "loop",
  "tui",
  "json-size",
  "soak",
  "cli",
];
const selected = process.argv.slice(2);
const unknown = selected.filter((n) => !ALL.includes(n));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; choose from ${ALL.join(", ")}`);
  process.exit(2);
}
const names = selected.length > 0 ? selected : ALL;
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const DIST = join(ROOT, "dist");
if (!existsSync(join(DIST, "api.js")) || !existsSync(join(DIST, "cli.js"))) {
  console.log("dist/ is missing: building pi-host (npm run build) ...");
  const built = spawnSync(npm, ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) {
    console.error("build failed; the benchmarks measure the built code in dist/");
    process.exit(1);
  }
}

const notes = [];
if (!existsSync(join(BENCH_DIR, "node_modules"))) {
  console.log("bench/node_modules is missing: installing bench dependencies (npm ci --prefix bench) ...");
  const installed = spawnSync(npm, ["ci", "--prefix", BENCH_DIR, "--no-audit", "--no-fund"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (installed.status !== 0)
    notes.push("npm ci --prefix bench failed: pi could not be installed, so the pi comparison is skipped");
}
if (!existsSync(PI_CLI) && notes.length === 0)
  notes.push(`pi is not installed (${PI_CLI} missing): the pi comparison is skipped`);

// Snapshot dist/ into a temp folder laid out like the package (package.json for "type": "module",
// plugins.json, and a node_modules link so jiti and chokidar resolve to the root's copies), and point every
// benchmark at it: a rebuild in the working tree during the run can then neither delete dist/cli.js under
// cold-start nor mix two builds in one run. The code measured is byte-for-byte the built dist/.
const snapshot = mkdtempSync(join(tmpdir(), "pi-host-bench-"));
cpSync(DIST, join(snapshot, "dist"), { recursive: true });
for (const file of ["package.json", "plugins.json"])
  if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(snapshot, file));
symlinkSync(join(ROOT, "node_modules"), join(snapshot, "node_modules"), "dir");
if (!existsSync(join(snapshot, "dist", "api.js")) || !existsSync(join(snapshot, "dist", "cli.js"))) {
  console.error(`dist/ changed while it was copied (a build running?); run again`);
  rmSync(snapshot, { recursive: true, force: true });
  process.exit(1);
}
const childEnv = { ...process.env, PI_BENCH_DIST: join(snapshot, "dist") };

const rows = [];
const crashed = [];
for (const name of names) {
  console.log(`\n── ${name} ${"─".repeat(Math.max(0, 70 - name.length))}`);
  const resultFile = join(RESULTS_DIR, `${name}.json`);
  rmSync(resultFile, { force: true });
  const started = Date.now();
  const child = spawnSync(process.execPath, ["--expose-gc", join(BENCH_DIR, `${name}.mjs`)], {
    cwd: ROOT,
    stdio: "inherit",
    env: childEnv,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (child.status !== 0 || !existsSync(resultFile)) {
    crashed.push(name);
    console.log(`   ${name} FAILED (exit ${child.status ?? child.signal}) after ${seconds} s`);
    continue;
  }
  console.log(`   (${seconds} s)`);
  const result = JSON.parse(readFileSync(resultFile, "utf8"));
  if (result.piSkipped) notes.push(`${name}: ${result.piSkipped}`);
  for (const c of result.checks) rows.push({ bench: name, ...c });
  if (result.loadavg?.[0] > result.cpus)
    notes.push(
      `${name}: load average ${result.loadavg[0]} on ${result.cpus} cores while it ran; its numbers are noisy`,
    );
}

rmSync(snapshot, { recursive: true, force: true });

// ── summary ─────────────────────────────────────────────────────────────────────────────────────
const fmt = (v) =>
  typeof v === "number"
    ? Number.isInteger(v)
      ? String(v)
      : Math.abs(v) >= 100
        ? v.toFixed(1)
        : Math.abs(v) >= 10
          ? v.toFixed(2)
          : v.toFixed(3)
    : String(v);
const table = rows.map((r) => [
  r.bench,
  r.metric,
  `${fmt(r.value)} ${r.unit}`,
  r.target === null ? "—" : `${r.better === "lower" ? "≤" : "≥"} ${r.target} ${r.unit}`,
  r.pass === null ? "info" : r.pass ? "PASS" : "MISS",
]);
const header = ["benchmark", "metric", "value", "target", ""];
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) =>
  cells
    .map((c, i) => (i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
    .join("  ")
    .trimEnd();
console.log(`\n${"═".repeat(widths.reduce((s, w) => s + w + 2, 0))}`);
console.log(
  `pi-host benchmarks — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${(await import("node:os")).cpus().length} cores`,
);
console.log(line(header));
console.log(line(widths.map((w) => "─".repeat(w))));
for (const row of table) console.log(line(row));
const checked = rows.filter((r) => r.pass !== null);
console.log(
  `\n${checked.filter((r) => r.pass).length}/${checked.length} targets met${crashed.length ? `; crashed: ${crashed.join(", ")}` : ""}`,
);
for (const note of notes) console.log(`NOTE: ${note}`);
console.log(`raw results: ${RESULTS_DIR}/<name>.json`);
process.exit(crashed.length > 0 ? 1 : 0);
