/**
 * The soak's measurements at rest and its summary helpers: active handles, idle CPU, per-plugin statistics,
 * count differences, and pi's own reading of the session file (when bench/node_modules has pi).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PI_CLI, round, sleep, summarize } from "./lib.mjs";

/** Counts of the active handles and requests (`process.getActiveResourcesInfo`) by type. */
export function activeResources() {
  const counts = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/** CPU time (user + system) this process spends over one idle second, in ms. */
export async function idleCpuMs() {
  const start = process.cpuUsage();
  const t0 = performance.now();
  await sleep(1_000);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) / 1000) * (1000 / (performance.now() - t0));
}

/** Rounded n/min/p50/p95/max/mean of `pick` over `records`. */
export function stats(records, pick) {
  return Object.fromEntries(Object.entries(summarize(records.map(pick))).map(([k, v]) => [k, round(v)]));
}

/** The per-key difference of two count maps (after − before), without the zeros. */
export function diffCounts(before, after) {
  const out = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const d = (after[key] ?? 0) - (before[key] ?? 0);
    if (d !== 0) out[key] = d;
  }
  return out;
}

/** The session lifecycle counters' growth from `start` to `end`, and whether starts and ends balance. */
export function diffLifecycle(end, start) {
  const out = {};
  for (const key of Object.keys(end)) if (typeof end[key] === "number") out[key] = end[key] - start[key];
  out.balanced = out.agentStart === out.agentEnd && out.turnStart === out.turnEnd;
  return out;
}

/**
 * Opens the file with pi's own SessionManager (bench/node_modules, when installed): pi must read every
 * entry we wrote, and its context must end with our last message.
 */
export async function piReads(path, messages) {
  const agentJs = join(PI_CLI, "..", "index.js");
  let agent;
  try {
    agent = await import(pathToFileURL(agentJs).href);
  } catch {
    return { skipped: `pi is not installed (${agentJs}); only our own parse checked the file` };
  }
  try {
    const manager = agent.SessionManager.open(path);
    const entries = manager.getEntries();
    const piMessages = entries.filter((e) => e.type === "message").length;
    const context = manager.buildSessionContext();
    const ok = piMessages === messages && context.messages.length > 0;
    return {
      ok,
      entries: entries.length,
      messages: piMessages,
      contextMessages: context.messages.length,
      problem: ok ? undefined : `pi reads ${piMessages} messages; we wrote ${messages}`,
    };
  } catch (error) {
    return { ok: false, problem: `pi could not open the session file: ${error?.message ?? error}` };
  }
}
