/**
 * soak's numbers: per-plugin latencies, the checks against their targets, the printed summary and
 * bench/results/soak.json, from the facts bench/soak.mjs gathered (kept apart so each file stays short).
 */
import { check, printChecks, round, writeResult } from "./lib.mjs";
import { diffCounts, diffLifecycle, stats } from "./soak-measure.mjs";

const TARGET_P50_MS = 150;
const TARGET_P95_MS = 400;
const TARGET_HEAP_MB = 2;
/** Idle CPU may exceed its baseline by this much (ms of CPU per second) before it counts as "not back". */
const TARGET_IDLE_CPU_MS = 5;
const MB = 1024 * 1024;

/** Computes, checks, prints and writes the soak's results; `facts` holds what the run gathered. */
export function reportSoak(facts) {
  const {
    records,
    soakKernelErrors,
    EDITED,
    CORE,
    liveGenerations,
    finalProbe,
    trackedCount,
    collectedCount,
    unexpectedCommits,
    probeProblems,
    sessionCheck,
    piCheck,
    unhandled,
    shell,
    lastAnswerSeen,
    baseline,
    final,
    afterSoak,
    soakPrompts,
    lifecycle,
    lifecycleAtStart,
    soakMs,
    warmupMs,
    soakStarted,
    treeRoot,
    retiredEvents,
    driverErrors,
    config,
  } = facts;
  const committed = records.filter((r) => r.commitMs !== undefined);
  const stuck = records.filter((r) => r.commitMs === undefined);
  const deferred = records.filter((r) => r.deferred.length > 0);
  const deferredWithoutReason = deferred.filter((r) =>
    r.deferred.some((d) => typeof d.reason !== "string" || d.reason === ""),
  );
  const perPlugin = {};
  for (const id of EDITED) {
    const mine = committed.filter((r) => r.plugin === id);
    perPlugin[id] = {
      reloads: records.filter((r) => r.plugin === id).length,
      committed: mine.length,
      deferred: mine.filter((r) => r.deferred.length > 0).length,
      observed: mine.filter((r) => r.observed).length,
      saveToCommit: stats(mine, (r) => r.commitMs),
      /** The same without the time queued behind other plugins' reloads: what one edit alone would take. */
      ownLatency: stats(mine, (r) => r.commitMs - (r.loadMs - r.requestMs)),
      watcher: stats(mine, (r) => r.requestMs),
      queued: stats(mine, (r) => r.loadMs - r.requestMs),
      loadAndPrepare: stats(mine, (r) => r.gateMs - r.loadMs),
      gateToCommit: stats(mine, (r) => r.commitMs - r.gateMs),
    };
  }
  const resourceDiff = diffCounts(baseline.resources, final.resources);
  const notOneGeneration = Object.entries(liveGenerations).filter(([, n]) => n !== 1);
  const probeCounts = CORE.map((id) => finalProbe.filter((a) => a.id === id).length);
  const retiredTracked = trackedCount - CORE.length;

  const checks = [
    ...EDITED.flatMap((id) => [
      check(`save→commit p50 ${id}`, perPlugin[id].saveToCommit.p50, "ms", TARGET_P50_MS),
      check(`save→commit p95 ${id}`, perPlugin[id].saveToCommit.p95, "ms", TARGET_P95_MS),
      check(`  own p50 ${id} (not queued)`, perPlugin[id].ownLatency.p50, "ms", null),
      check(`  own p95 ${id} (not queued)`, perPlugin[id].ownLatency.p95, "ms", null),
    ]),
    check("reloads committed", committed.length, "n", records.length, "higher"),
    check("reloads stuck or aborted", stuck.length + soakKernelErrors.length, "n", 0),
    check("reloads deferred (then committed)", deferred.length, "n", null),
    check("deferrals without a reason", deferredWithoutReason.length, "n", 0),
    check("commits no save asked for", unexpectedCommits.length, "n", 0),
    check("probe mismatches", probeProblems.length, "n", 0),
    check("session file problems", sessionCheck.problems.length + (piCheck.ok === false ? 1 : 0), "n", 0),
    check("turns aborted or failed", sessionCheck.counts.aborted + sessionCheck.counts.errored, "n", 0),
    check("unhandled rejections/exceptions", unhandled.length, "n", 0),
    check("view call failures", shell.errors.length, "n", 0),
    check("last answer on the tui's last frame", lastAnswerSeen ? 1 : 0, "n", 1, "higher"),
    check("heap growth after GC (vs warm-up)", (final.heap - baseline.heap) / MB, "MB", TARGET_HEAP_MB),
    check("idle CPU after − before", final.cpuMs - baseline.cpuMs, "ms/s", TARGET_IDLE_CPU_MS),
    check(
      "active handles/requests added",
      Object.values(resourceDiff).reduce((s, n) => s + Math.max(0, n), 0),
      "n",
      0,
    ),
    check(
      "plugins without exactly 1 live generation",
      notOneGeneration.length + probeCounts.filter((n) => n !== 1).length,
      "n",
      0,
    ),
    check("retired generations collected", collectedCount, "n", retiredTracked, "higher"),
    check("prompts during the soak", soakPrompts, "n", null),
    check("compactions during the soak", lifecycle.compactions - lifecycleAtStart.compactions, "n", null),
    check("soak duration", soakMs / 1000, "s", null),
  ];

  console.log(
    `soak: ${committed.length}/${records.length} reloads committed in ${round(soakMs / 1000, 1)} s, ${soakPrompts} prompts, ${sessionCheck.counts.toolCalls} tool calls, ${lifecycle.compactions - lifecycleAtStart.compactions} compactions`,
  );
  for (const id of EDITED) {
    const p = perPlugin[id];
    console.log(
      `  ${id.padEnd(14)} ${String(p.committed).padStart(3)} reloads (${p.deferred} deferred)  save→commit p50 ${p.saveToCommit.p50} ms, p95 ${p.saveToCommit.p95} ms` +
        `  [p50: watcher ${p.watcher.p50}, queued ${p.queued.p50}, load+prepare ${p.loadAndPrepare.p50}, gate ${p.gateToCommit.p50}; own p50 ${p.ownLatency.p50} p95 ${p.ownLatency.p95}]`,
    );
  }
  for (const line of [
    ...sessionCheck.problems,
    ...(piCheck.problem ? [piCheck.problem] : []),
    ...probeProblems.slice(0, 10),
    ...unexpectedCommits.slice(0, 10),
    ...soakKernelErrors.slice(0, 10),
    ...unhandled.slice(0, 10),
    ...shell.errors.slice(0, 10),
    ...driverErrors.slice(0, 10),
  ]) {
    console.log(`  PROBLEM: ${line}`);
  }
  printChecks(checks);

  writeResult("soak", {
    config,

    warmupMs: round(warmupMs),
    soakMs: round(soakMs),
    prompts: soakPrompts,
    session: { file: "(temp, removed)", ...sessionCheck.counts, problems: sessionCheck.problems, pi: piCheck },
    lifecycle: { ...diffLifecycle(lifecycle, lifecycleAtStart), notices: lifecycle.notices.slice(0, 20) },
    tui: { frames: shell.frames, errors: shell.errors, lastAnswerOnScreen: lastAnswerSeen },
    perPlugin,
    reloads: records.map((r) => ({
      n: r.n,
      plugin: r.plugin,
      kind: r.kind,
      file: r.file.slice(treeRoot.length + 1),
      generation: r.committedGeneration,
      savedAtS: round((r.savedAt - soakStarted) / 1000, 3),
      saveToRequestMs: round(r.requestMs),
      saveToLoadMs: round(r.loadMs),
      saveToGateMs: round(r.gateMs),
      saveToCommitMs: round(r.commitMs),
      gates: r.gates,
      deferred: r.deferred,
      observed: r.observed ?? false,
    })),
    memory: {
      baselineHeapMb: round(baseline.heap / MB, 3),
      afterSoakHeapMbNoGc: round(afterSoak.heap / MB, 3),
      finalHeapMb: round(final.heap / MB, 3),
      growthMb: round((final.heap - baseline.heap) / MB, 3),
    },
    cpu: { idleBeforeMsPerS: round(baseline.cpuMs), idleAfterMsPerS: round(final.cpuMs) },
    resources: { before: baseline.resources, after: final.resources, diff: resourceDiff },
    generations: {
      live: liveGenerations,
      finalProbe,
      tracked: trackedCount,
      retiredTracked,
      collected: collectedCount,
      retiredEvents,
    },
    problems: {
      probe: probeProblems,
      unexpectedCommits,
      kernelErrors: soakKernelErrors,
      unhandled,
      driver: driverErrors,
      stuck: stuck.map((r) => r.plugin),
    },
    checks,
  });
}
