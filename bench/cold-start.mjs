/**
 * cold start: how long does `pi --version` take, against bare node and against pi itself?
 *
 * Three commands, each spawned fresh: `node -e 0` (the floor), `node dist/cli.js --version` (pi-host) and
 * `node <pi>/dist/cli.js --version` (pi 0.73.1 from bench/node_modules). Each gets 3 warm-up runs (the
 * OS page cache) and then 30 timed runs; the commands take turns, in a rotating order, so noise on the
 * two shared cores spreads evenly over all three. The clock is process.hrtime.bigint() around spawnSync,
 * i.e. fork + exec + node start-up + the program + exit, as a user's shell sees it.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { check, DIST_CLI, PI_CLI, printChecks, round, ROOT, summarize, writeResult } from "./lib.mjs";

const WARMUP = 3;
const RUNS = 30;
const TARGET_OVER_NODE_MS = 30;

if (!existsSync(DIST_CLI)) {
  console.error(`${DIST_CLI} is missing; run "npm run build" at the repository root first`);
  process.exit(1);
}
const commands = [
  { name: "node", args: ["-e", "0"], expect: "" },
  { name: "pi-host", args: [DIST_CLI, "--version"], expect: /^\d+\.\d+\.\d+/ },
];
const piNote = existsSync(PI_CLI)
  ? undefined
  : `pi is not installed (${PI_CLI} is missing); run "npm ci --prefix bench" to compare`;
if (piNote === undefined) commands.push({ name: "pi", args: [PI_CLI, "--version"], expect: /^\d+\.\d+\.\d+/ });

/** Runs one command and returns its wall time in ms; fails loudly if it did not do its job. */
function runOnce(command) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, command.args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // pi prints its version on stderr (with --version it takes over stdout first); accept either stream.
  const out = (result.stdout.trim() || result.stderr.trim()).split("\n")[0];
  const ok =
    result.status === 0 && (typeof command.expect === "string" ? out === command.expect : command.expect.test(out));
  if (!ok)
    throw new Error(
      `${command.name} failed: status ${result.status}, stdout ${JSON.stringify(out)}, stderr ${result.stderr.slice(0, 500)}`,
    );
  command.version ??= out || process.version;
  return ms;
}

const samples = Object.fromEntries(commands.map((c) => [c.name, []]));
for (let i = 0; i < WARMUP; i++) for (const c of commands) runOnce(c);
for (let i = 0; i < RUNS; i++) {
  for (let k = 0; k < commands.length; k++) {
    const c = commands[(i + k) % commands.length];
    samples[c.name].push(runOnce(c));
  }
}
// Differences per round: the commands of one round ran within a second or two of each other, so load that
// drifts over the run (the shared cores) cancels out; the median of these is the checked number. The
// difference of the two medians is shown too; under heavy load it can even come out negative.
const pairedHost = summarize(samples["pi-host"].map((ms, i) => ms - samples.node[i]));
const pairedPi = samples.pi ? summarize(samples.pi.map((ms, i) => ms - samples.node[i])) : undefined;

const stats = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values)]));
const node = stats.node;
const host = stats["pi-host"];
const pi = stats.pi;
const checks = [
  check("pi-host − node, paired per round (p50)", pairedHost.p50, "ms", TARGET_OVER_NODE_MS),
  check("pi-host − node, paired per round (p95)", pairedHost.p95, "ms", null),
  check("p50(pi-host) − p50(node)", host.p50 - node.p50, "ms", null),
  check("pi-host --version (p50)", host.p50, "ms", null),
  check("pi-host --version (p95)", host.p95, "ms", null),
  check("node -e 0 (p50)", node.p50, "ms", null),
  check("node -e 0 (p95)", node.p95, "ms", null),
];
if (pi) {
  checks.push(check("pi --version (p50)", pi.p50, "ms", null));
  checks.push(check("pi --version (p95)", pi.p95, "ms", null));
  checks.push(check("pi − node, paired per round (p50)", pairedPi.p50, "ms", null));
  checks.push(check("ratio pi / pi-host (p50)", pi.p50 / host.p50, "×", null));
  if (pairedHost.p50 > 0.5)
    checks.push(check("ratio over node, paired (pi / pi-host)", pairedPi.p50 / pairedHost.p50, "×", null));
}

console.log(`cold-start: ${RUNS} runs each after ${WARMUP} warm-ups, commands interleaved`);
for (const c of commands) {
  const s = stats[c.name];
  console.log(
    `  ${c.name.padEnd(8)} p50 ${String(round(s.p50)).padStart(8)} ms  p95 ${String(round(s.p95)).padStart(8)} ms  (min ${round(s.min)}, max ${round(s.max)})  [${c.version}]`,
  );
}
if (piNote) console.log(`  NOTE: ${piNote}; the pi comparison is skipped`);
printChecks(checks);
writeResult("cold-start", {
  config: { warmup: WARMUP, runs: RUNS },
  commands: commands.map((c) => ({
    name: c.name,
    argv: ["node", ...c.args.map((a) => a.replace(DIST_CLI, "dist/cli.js").replace(`${ROOT}/`, ""))],
    version: c.version,
  })),
  stats: Object.fromEntries(
    Object.entries(stats).map(([k, s]) => [k, Object.fromEntries(Object.entries(s).map(([f, v]) => [f, round(v)]))]),
  ),
  samplesMs: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map((x) => round(x))])),
  pairedHostMinusNodeMs: Object.fromEntries(Object.entries(pairedHost).map(([f, v]) => [f, round(v)])),
  pairedPiMinusNodeMs: pairedPi ? Object.fromEntries(Object.entries(pairedPi).map(([f, v]) => [f, round(v)])) : null,
  piSkipped: piNote ?? null,
  checks,
});
