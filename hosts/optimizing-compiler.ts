/**
 * Why `pi` starts with V8's optimizing compiler (TurboFan) and its baseline compiler (Sparkplug) switched off. A one-turn `pi -p` calls a few
 * functions often enough (Node's own path and URL helpers while ~40 plugin modules are resolved, the SSE
 * line splitter) for V8 to optimize them; the first optimization touches TurboFan's machine code in the
 * node binary and its compile zones, ~7 MB of resident memory on Node 22 (5.5 MB of binary pages,
 * 1.5 MB anonymous) and ~50 ms of background CPU, for code the run then calls a handful more times
 * (bench/RESULTS.md, 2026-12-06). Opening a 20,000-message session is the same story at twice the size,
 * without a measurable cost in CPU: its heavy steps are JSON.parse and JSON.stringify, which are native.
 * Sparkplug's baseline code for warm functions is another ~0.7 MB there, again with no CPU difference.
 *
 * A process that keeps working is different: a long interactive session, an RPC client, a long `-p` run
 * with many tool calls. So the compiler comes back once the process has used a few seconds of CPU, which
 * no short run reaches; from then on V8 tiers up as usual (the flags are read at each tier-up decision).
 */
import { setFlagsFromString } from "node:v8";

/** CPU time (user + system, all threads, µs) after which the optimizing compiler is switched back on. */
const CPU_BEFORE_OPTIMIZING_US = 2_000_000;
/** How often the CPU time is looked at while the compiler is off. */
const CHECK_EVERY_MS = 500;

/** Switches TurboFan and Sparkplug off until the process has used CPU_BEFORE_OPTIMIZING_US; call first thing. */
export function deferOptimizingCompiler(): void {
  setFlagsFromString("--no-turbofan");
  setFlagsFromString("--no-sparkplug");
  const timer = setInterval(() => {
    const used = process.cpuUsage();
    if (used.user + used.system < CPU_BEFORE_OPTIMIZING_US) return;
    setFlagsFromString("--sparkplug");
    setFlagsFromString("--turbofan");
    clearInterval(timer);
  }, CHECK_EVERY_MS);
  // The check never keeps a finished run alive.
  timer.unref();
}
