/**
 * The sandbox's limits hold against adversarial scripts: memory is bounded for real (process RSS
 * sampled while a script hogs), the deadline is enforced from outside the VM while the host event
 * loop keeps running, an abort stops a spinning script at once, and tool calls are capped in number,
 * concurrency and argument size.
 */
import { describe, expect, it } from "vitest";
import {
  runSandboxed,
  type SandboxFunction,
  type SandboxLimits,
} from "../../../plugins/integrations/codemode/sandbox.js";

const MB = 1024 * 1024;
const LIMITS: SandboxLimits = {
  timeLimitMs: 30_000,
  memoryLimitBytes: 64 * MB,
  maxOutputBytes: 4_096,
  maxStackBytes: 256 * 1024,
  maxToolCalls: 1_000,
  maxConcurrentToolCalls: 16,
  maxArgumentBytes: MB,
};

function run(
  code: string,
  functions: Record<string, SandboxFunction> = {},
  limits: Partial<SandboxLimits> = {},
  signal?: AbortSignal,
) {
  return runSandboxed(code, functions, { ...LIMITS, ...limits }, signal);
}

/** Runs `work` while sampling this process's RSS (the worker's memory is part of it) and the event loop's liveness. */
async function watched<T>(
  work: () => Promise<T>,
): Promise<{ value: T; rssGrowth: number; ticks: number; elapsedMs: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  let ticks = 0;
  const sampler = setInterval(() => {
    ticks++;
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const started = Date.now();
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, rssGrowth: peak - before, ticks, elapsedMs: Date.now() - started };
  } finally {
    clearInterval(sampler);
  }
}

describe("codemode sandbox limits", () => {
  it("a script allocating ArrayBuffers in a loop is stopped with peak RSS under the limit + 64 MB", async () => {
    // QuickJS's own allocator limit let this reach 2 GB of WebAssembly memory.
    const { value, rssGrowth } = await watched(() =>
      run("console.log('hogging');\nconst hog = [];\nfor (;;) hog.push(new ArrayBuffer(1 << 20));"),
    );
    console.log(`ArrayBuffer hog: peak RSS growth ${(rssGrowth / MB).toFixed(1)} MB (limit 64 MB)`);
    expect(value.output).toBe("hogging");
    expect(value.error).toMatch(/^InternalError: out of memory \(the sandbox's memory limit is 64 MB\)/);
    expect(rssGrowth).toBeLessThan(128 * MB);
  }, 60_000);

  it("a script allocating small objects in a loop is stopped with peak RSS under the limit + 64 MB", async () => {
    const { value, rssGrowth } = await watched(() =>
      run("const hog = [];\nfor (let i = 0; ; i++) hog.push({ i, text: 'item ' + i, more: 'y'.repeat(100) + i });"),
    );
    console.log(`object hog: peak RSS growth ${(rssGrowth / MB).toFixed(1)} MB (limit 64 MB)`);
    expect(value.error).toMatch(/out of memory/);
    expect(rssGrowth).toBeLessThan(128 * MB);
  }, 60_000);

  it("a memory limit past the build's 2 GB ceiling (the config allows 4096 MB) is clamped, not a broken sandbox", async () => {
    const outcome = await run("return 6 * 7", {}, { memoryLimitBytes: 4096 * MB });
    expect(outcome).toEqual({ output: "", outputTruncated: false, returned: "42" });
  }, 30_000);

  it("a script flooding host calls is stopped within the time limit + 1 s, and the event loop keeps answering timers", async () => {
    let served = 0;
    const ping: SandboxFunction = async () => String(++served);
    const { value, ticks, elapsedMs } = await watched(() =>
      run("for (;;) { tools.ping({}).catch(() => {}); }", { ping }, { timeLimitMs: 1_500 }),
    );
    // Past the 1,000-call cap every call is refused at once, and the loop never yields, so the refused
    // promises pile up: on a fast machine the memory limit stops the script before the clock does.
    // Either limit is the sandbox doing its job; what matters is that it stops in time.
    expect(value.error).toMatch(/^the script was stopped at its (time limit of 1500 ms|memory limit)/);
    expect(elapsedMs).toBeLessThan(2_500);
    // A 10 ms timer fired many times while the script spun: the main thread was never blocked.
    expect(ticks).toBeGreaterThan(10);
    expect(served).toBeLessThanOrEqual(1_000);
  }, 30_000);

  it("a single long operation inside QuickJS (catastrophic regex) is stopped within the time limit + 1 s", async () => {
    const { value, ticks, elapsedMs } = await watched(() =>
      run("return /^(a+)+$/.test('a'.repeat(40) + 'b');", {}, { timeLimitMs: 1_000 }),
    );
    expect(value.error).toBe("the script was stopped at its time limit of 1000 ms");
    expect(elapsedMs).toBeLessThan(2_000);
    expect(ticks).toBeGreaterThan(10);
  }, 30_000);

  it("an abort stops a spinning script promptly, fired by a timer that runs during the spin", async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const timer = setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, 1_000);
    try {
      const outcome = await run("while (true) {}", {}, { timeLimitMs: 60_000 }, controller.signal);
      expect(outcome.error).toBe("the script was aborted");
      expect(abortedAt).toBeGreaterThan(0);
      expect(Date.now() - abortedAt).toBeLessThan(1_000);
    } finally {
      clearTimeout(timer);
    }
  }, 30_000);

  it("10,000 un-awaited nested calls: 1,000 run (16 at a time at most), the rest are refused inside the script", async () => {
    let running = 0;
    let peakRunning = 0;
    let executed = 0;
    const slow: SandboxFunction = async () => {
      executed++;
      running++;
      peakRunning = Math.max(peakRunning, running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      return "ok";
    };
    const outcome = await run(
      `const calls = [];
       for (let i = 0; i < 10000; i++) calls.push(tools.slow({ i }).then((r) => r, (e) => e.message));
       const results = await Promise.all(calls);
       const counts = {};
       for (const r of results) counts[r] = (counts[r] ?? 0) + 1;
       return counts;`,
      { slow },
    );
    expect(outcome.error).toBeUndefined();
    expect(JSON.parse(outcome.returned!)).toEqual({
      ok: 1_000,
      "tool call refused: a script may make at most 1000 tool calls": 9_000,
    });
    expect(executed).toBe(1_000);
    expect(peakRunning).toBeLessThanOrEqual(16);
    expect(peakRunning).toBeGreaterThan(1);
  }, 60_000);

  it("a call whose arguments exceed the size cap is refused inside the script; the tool never runs", async () => {
    let ran = false;
    const take: SandboxFunction = async () => ((ran = true), "taken");
    const outcome = await run(
      "try { await tools.take({ blob: 'x'.repeat(2 * 1024 * 1024) }); return 'sent'; } catch (e) { return e.message; }",
      { take },
    );
    expect(outcome.returned).toBe("tool call refused: its arguments exceed 1024 KB");
    expect(ran).toBe(false);
  }, 30_000);

  it("calls still running when the script ends are aborted, each through its own signal", async () => {
    const signals: AbortSignal[] = [];
    const hang: SandboxFunction = (_args, signal) => (signals.push(signal), new Promise<string>(() => {}));
    const outcome = await run("for (let i = 0; i < 5; i++) tools.hang({}); return 'left';", { hang });
    expect(outcome.returned).toBe("left");
    expect(signals).toHaveLength(5);
    expect(new Set(signals).size).toBe(5);
    expect(signals.every((s) => s.aborted)).toBe(true);
  }, 30_000);
});
