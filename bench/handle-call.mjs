/**
 * handle call overhead: what does going through a stable handle cost per call?
 *
 * A plugin provides a `single` contract whose `inc(x)` returns x + 1 (synchronous). The same provider
 * object is called two ways: `handle.api.inc(i)` (the typed view) through the kernel's stable handle (admission,
 * generation pinning, thenable check, release) and `impl.inc(i)` directly. Each way runs many millions of
 * iterations per round, rounds alternate between the two so drift and noise hit both alike, and the
 * median round counts. Every result feeds an accumulator that is checked at the end, so V8 cannot drop
 * the calls as dead code.
 *
 * Each round is also timed in CPU time (`process.cpuUsage`, user + system of this process): on a shared,
 * oversubscribed machine the wall time of a round includes the time the process waited for a core, so
 * the CPU-time overhead (an info row) tells "the machine is loaded" from "the handle got slower".
 */
import { check, loadApi, median, printChecks, round, writeResult } from "./lib.mjs";

const ITERATIONS = 10_000_000;
const ROUNDS = 9;
const WARMUP_ROUNDS = 3;
const TARGET_OVERHEAD_NS = 200;

const api = await loadApi();
const Counter = api.defineContract({
  id: "bench/counter",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { inc: "function" },
  methods: { inc: "sync" },
});
const plugin = api.definePlugin({
  id: "counter",
  version: "1.0.0",
  provides: [Counter],
  setup(ctx) {
    ctx.provide(Counter, {
      inc(x) {
        return x + 1;
      },
    });
  },
});
const kernel = new api.Kernel();
const boot = await kernel.boot([{ id: "counter", source: { kind: "inline", label: "counter", definition: plugin } }]);
if (!boot.ok || boot.errors.length > 0) {
  console.error("boot failed:", boot.errors.map((e) => api.formatLifecycleError(e)).join("\n"));
  process.exit(1);
}
const handle = kernel.use(Counter);
const impl = handle.peek();

/** Direct calls on the provider object. Returns an int32 accumulator so the calls stay live. */
function direct(target, n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc = (acc + target.inc(i)) | 0;
  return acc;
}

/** The same calls through the stable handle. */
function viaHandle(h, n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc = (acc + h.api.inc(i)) | 0;
  return acc;
}

/** Wall ns and CPU ns per call for one round of `fn`. */
function timeRound(fn, target, n) {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  const acc = fn(target, n);
  const ns = Number(process.hrtime.bigint() - start) / n;
  const cpu = process.cpuUsage(cpuStart);
  const cpuNs = ((cpu.user + cpu.system) * 1000) / n;
  return { ns, cpuNs, acc };
}

const expected = direct(impl, ITERATIONS);
for (let r = 0; r < WARMUP_ROUNDS; r++) {
  timeRound(direct, impl, ITERATIONS / 10);
  timeRound(viaHandle, handle, ITERATIONS / 10);
}
const directNs = [];
const handleNs = [];
const directCpuNs = [];
const handleCpuNs = [];
let sink = 0;
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? ["direct", "handle"] : ["handle", "direct"];
  for (const which of order) {
    const { ns, cpuNs, acc } =
      which === "direct" ? timeRound(direct, impl, ITERATIONS) : timeRound(viaHandle, handle, ITERATIONS);
    if (acc !== expected) throw new Error(`${which} round ${r}: accumulator ${acc}, expected ${expected}`);
    sink = (sink + acc) | 0;
    (which === "direct" ? directNs : handleNs).push(ns);
    (which === "direct" ? directCpuNs : handleCpuNs).push(cpuNs);
  }
}
await kernel.shutdown();

const d = median(directNs);
const h = median(handleNs);
const dCpu = median(directCpuNs);
const hCpu = median(handleCpuNs);
const checks = [
  check("handle.call overhead (median)", h - d, "ns", TARGET_OVERHEAD_NS),
  check("handle.call per call (median)", h, "ns", null),
  check("direct call per call (median)", d, "ns", null),
  check("handle.call overhead, CPU time (median)", hCpu - dCpu, "ns", null),
];
console.log(`handle-call: ${ROUNDS} rounds × ${ITERATIONS.toLocaleString("en")} calls each way (sink ${sink})`);
console.log(
  `  direct ${round(d, 2)} ns/call, handle ${round(h, 2)} ns/call, overhead ${round(h - d, 2)} ns/call (CPU time: ${round(hCpu - dCpu, 2)} ns/call)`,
);
printChecks(checks);
writeResult("handle-call", {
  config: { iterations: ITERATIONS, rounds: ROUNDS, warmupRounds: WARMUP_ROUNDS },
  directNsPerCall: round(d, 3),
  handleNsPerCall: round(h, 3),
  overheadNsPerCall: round(h - d, 3),
  overheadCpuNsPerCall: round(hCpu - dCpu, 3),
  directRoundsNs: directNs.map((v) => round(v, 3)),
  handleRoundsNs: handleNs.map((v) => round(v, 3)),
  directRoundsCpuNs: directCpuNs.map((v) => round(v, 3)),
  handleRoundsCpuNs: handleCpuNs.map((v) => round(v, 3)),
  checks,
});
