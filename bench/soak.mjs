/**
 * soak: a session keeps working while every core plugin is edited under it, 200 reloads in all.
 *
 * One process holds a kernel (the built one, dist/api.js) composed like tests/plugins/agent-session/harness.ts,
 * but with the core plugins — agent-loop, session-jsonl, compaction, agent-session, tui, provider-faux, llm and
 * tool-ls — loaded as FILE sources from a temp copy of their folders (bench/soak-tree.mjs), with
 * `watchPlugins` (hosts/watch.ts, default options) running. Two small inline plugins give the faux model
 * (a 16k context window, so compaction runs every few dozen prompts) and fixed settings.
 *
 *   - the driver prompts the session for the whole run, "prompt N: steps: K" with K of 2..4 (every 10th
 *     prompt 40, longer than the session's 5 s gate deadline); the provider (paced at 50 tokens/s, ~200 ms
 *     an answer) answers each with K tool-call turns of `ls`, then a text;
 *   - the tui's view is driven headlessly through its contract as the interactive mode drives it: every
 *     session event and a frame at most every 16 ms, one call at a time, in order;
 *   - the rewriter edits the plugins at random moments (seeded PRNG, gaps of ~600 ms on average), one
 *     save per reload: a new revision marker in index.ts or a new trailing comment in another file.
 *     Saves of one plugin never overlap (the next waits for the commit); saves of different plugins do.
 *
 * Recorded per reload, from kernel events and phase hooks: the save time, when its load, gate and commit
 * began, any deferral (with its reason) and the commit; at each commit a probe on the bus checks that
 * exactly one generation of each plugin answers and that the edited one answers with the new generation
 * (and marker). Checked after the run: the session file (bench/soak-check.mjs, and pi's own SessionManager
 * when bench/node_modules has pi), no aborted turn, every reload committed, no unhandled rejection; then,
 * in a fresh session as at the baseline: heap after forced GC vs after warm-up, idle CPU and active handles
 * vs before, one live generation per plugin, and how many retired generations the collector freed.
 *
 * The copies import the kernel and the contracts only as "pi-host", as every plugin does and as `pi plugin
 * eject` copies them: the kernel hands them the built host module (dist/api.js) as a virtual module, so a
 * reload evaluates only the plugin's own files. An import that leaves a plugin's folder by path is counted
 * and fails the run (the copy has no kernel/ or contracts/ to reach).
 *
 * Run with `node --expose-gc bench/soak.mjs` (or `node bench/run.mjs soak`). PI_SOAK_SEED and
 * PI_SOAK_RELOADS change the schedule and the count; PI_SOAK_PLUGINS (comma-separated core plugin ids,
 * e.g. `agent-session`) makes the soak's saves edit only those plugins, mid-run. Results:
 * bench/results/soak.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fullGc, hostModules, round, ROOT, sleep } from "./lib.mjs";
import { checkSessionFile } from "./soak-check.mjs";
import { reportSoak } from "./soak-report.mjs";
import { activeResources, idleCpuMs, piReads } from "./soak-measure.mjs";
import { soakInlinePlugins } from "./soak-plugins.mjs";
import { createViewShell } from "./soak-shell.mjs";
import {
  buildTree,
  importsLeavingPlugin,
  PROBE_EVENT,
  randomGapMs,
  rewrite,
  saveSchedule,
  seededRandom,
} from "./soak-tree.mjs";

const SEED = Number(process.env.PI_SOAK_SEED ?? 20261130);
const RELOADS = Number(process.env.PI_SOAK_RELOADS ?? 200);
const CORE = ["agent-loop", "session-jsonl", "compaction", "agent-session", "tui", "provider-faux", "llm", "tool-ls"];
const PROVIDER = "provider-faux";
const EDITED = process.env.PI_SOAK_PLUGINS ? process.env.PI_SOAK_PLUGINS.split(",").map((id) => id.trim()) : CORE;
if (EDITED.length === 0 || EDITED.some((id) => !CORE.includes(id))) {
  console.error(`soak: PI_SOAK_PLUGINS names plugins outside the core set; use some of: ${CORE.join(", ")}`);
  process.exit(2);
}
const WARMUP_PROMPTS = 4;
const LONG_EVERY = 10;
const LONG_STEPS = 40;
const MEAN_GAP_MS = 600;
const TOKENS_PER_SECOND = 50;
const COMMIT_TIMEOUT_MS = 30_000;
const FRAME_MS = 16;
const VIEW = { width: 100, height: 40 };
const MB = 1024 * 1024;

if (typeof globalThis.gc !== "function") {
  console.error("soak needs node --expose-gc");
  process.exit(1);
}

// ── unhandled failures are counted, never fatal: the count is one of the checks ──────────────────────
const unhandled = [];
process.on("unhandledRejection", (reason) => unhandled.push(`unhandled rejection: ${reason?.stack ?? reason}`));
process.on("uncaughtException", (error) => unhandled.push(`uncaught exception: ${error?.stack ?? error}`));

const now = () => performance.now();
const { api, virtualModules } = await hostModules();

// ── the tree, the working folder, the agent folder ────────────────────────────────────────────────────
const work = mkdtempSync(join(tmpdir(), "pi-soak-"));
const tree = join(work, "tree");
const cwd = join(work, "cwd");
const agentDir = join(work, "agent");
mkdirSync(cwd);
mkdirSync(agentDir);
// A folder worth listing: each ls result is a few hundred characters, so the context grows and compacts.
for (let i = 0; i < 24; i++)
  writeFileSync(join(cwd, `module-${String(i).padStart(2, "0")}.ts`), `export const value${i} = ${i};\n`);
mkdirSync(join(cwd, "docs"));
const plugins = buildTree(ROOT, tree, CORE, PROVIDER);
const pathImports = importsLeavingPlugin(tree, plugins);
if (pathImports.length > 0) {
  console.error(
    `soak: the copied plugins import by path outside their folders (only "pi-host" is allowed):\n  ${pathImports.join("\n  ")}`,
  );
  process.exit(1);
}
const runId = Date.now().toString(36); // every edit's content is new, also across runs (jiti's fs cache persists)

// ── inline plugins: the model catalog and fixed settings ──────────────────────────────────────────────
const { MODEL, SETTINGS, modelsPlugin, settingsPlugin } = soakInlinePlugins(api);

// ── reload bookkeeping: kernel events and phase hooks ─────────────────────────────────────────────────
/** Reloads whose commit has not come yet, by plugin (one at a time per plugin). */
const pending = new Map();
const commitWaiters = new Set();
const kernelErrors = [];
const unexpectedCommits = [];
const probeProblems = [];
let retiredCount = 0;
const marks = Object.fromEntries(CORE.map((id) => [id, "rev-0"]));

function phaseHook({ pluginId, phase, generation }) {
  const record = pending.get(pluginId);
  if (record === undefined) return;
  const at = now() - record.savedAt;
  if (phase === "load" && record.loadMs === undefined) {
    record.loadMs = at;
    record.generation = generation;
  }
  if (phase === "gate") {
    record.gateMs ??= at;
    record.gates++;
  }
}

const kernel = new api.Kernel({ virtualModules, phaseHook });
kernel.on("kernel:error", (error) => kernelErrors.push(api.formatLifecycleError(error)));
kernel.on("kernel:retired", () => retiredCount++);
kernel.on("kernel:deferred", ({ pluginId, generation, reason }) => {
  const record = pending.get(pluginId);
  if (record !== undefined) record.deferred.push({ atMs: round(now() - record.savedAt), generation, reason });
  else unexpectedCommits.push(`deferred reload of ${pluginId} (generation ${generation}) that no save asked for`);
});
kernel.on("kernel:commit", ({ pluginId, generation }) => {
  const record = pending.get(pluginId);
  if (record === undefined) {
    if (booted) unexpectedCommits.push(`commit of ${pluginId} generation ${generation} that no save asked for`);
    return;
  }
  record.commitMs = now() - record.savedAt;
  record.committedGeneration = generation;
  pending.delete(pluginId);
  if (record.mark !== undefined) marks[pluginId] = record.mark;
  probeAfterCommit(record);
  for (const wake of [...commitWaiters]) wake();
});

// ── generations: one probe answer per plugin, and which retired ones the collector freed ─────────────
const tracked = new Set();
let collected = 0;
const finalizers = new FinalizationRegistry(() => collected++);

/** Asks every active generation which it is; registers generations not seen yet for collection. */
function probe() {
  const answers = [];
  kernel.emit(PROBE_EVENT, {
    answer(id, mark, generation, owner) {
      answers.push({ id, mark, generation });
      const key = `${id}#${generation}`;
      if (!tracked.has(key)) {
        tracked.add(key);
        finalizers.register(owner, key);
      }
    },
  });
  return answers;
}

function probeAfterCommit(record) {
  const answers = probe();
  const mine = answers.filter((a) => a.id === record.plugin);
  const perPlugin = CORE.map((id) => answers.filter((a) => a.id === id).length);
  if (perPlugin.some((n) => n !== 1))
    probeProblems.push(
      `after the commit of ${record.plugin}: answers per plugin ${JSON.stringify(Object.fromEntries(CORE.map((id, i) => [id, perPlugin[i]])))}`,
    );
  const answer = mine[0];
  if (answer === undefined) return;
  if (answer.generation !== record.committedGeneration)
    probeProblems.push(
      `${record.plugin}: committed generation ${record.committedGeneration} but generation ${answer.generation} answers`,
    );
  if (answer.mark !== marks[record.plugin])
    probeProblems.push(
      `${record.plugin}: generation ${answer.generation} answers ${answer.mark}, expected ${marks[record.plugin]}`,
    );
  record.observed = answer.generation === record.committedGeneration && answer.mark === marks[record.plugin];
}

/** Resolves when `predicate()` holds, re-checked at every commit; false after `ms`. */
function untilCommitted(predicate, ms) {
  if (predicate()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      commitWaiters.delete(wake);
      resolve(false);
    }, ms);
    const wake = () => {
      if (!predicate()) return;
      clearTimeout(timer);
      commitWaiters.delete(wake);
      resolve(true);
    };
    commitWaiters.add(wake);
  });
}

// ── boot ──────────────────────────────────────────────────────────────────────────────────────────────
const file = (id) => ({ kind: "file", path: plugins[id].entry });
const inline = (definition) => ({ kind: "inline", label: definition.id, definition });
let booted = false;
const boot = await kernel.boot([
  { id: "soak-models", source: inline(modelsPlugin) },
  { id: "soak-settings", source: inline(settingsPlugin) },
  { id: PROVIDER, source: file(PROVIDER), config: { tokensPerSecond: TOKENS_PER_SECOND } },
  { id: "llm", source: file("llm") },
  { id: "session-jsonl", source: file("session-jsonl"), config: { agentDir } },
  { id: "compaction", source: file("compaction") },
  { id: "agent-loop", source: file("agent-loop") },
  { id: "tool-ls", source: file("tool-ls") },
  { id: "agent-session", source: file("agent-session"), config: { cwd, model: "faux/faux-1" } },
  { id: "tui", source: file("tui"), config: { agentDir } },
]);
if (!boot.ok || boot.errors.length > 0) {
  console.error("boot failed:", boot.errors.map((e) => api.formatLifecycleError(e)).join("\n"), boot.configErrors);
  process.exit(1);
}
booted = true;
probe(); // registers the first generations
const session = kernel.use(api.AgentSessionContract);
const view = kernel.use(api.TuiViewContract);
// When the watcher asks for each reload: the split between the watcher's share and time queued behind
// other reloads. The watcher calls kernel.reload(id); this wraps that one method on this instance.
const kernelReload = kernel.reload.bind(kernel);
kernel.reload = (pluginId, change) => {
  const record = pending.get(pluginId);
  if (record !== undefined) record.requestMs ??= now() - record.savedAt;
  return kernelReload(pluginId, change);
};
const watcher = await api.watchPlugins(kernel);

// ── the headless interactive mode: every view call in order, frames coalesced ─────────────────────────
const shell = createViewShell(view, VIEW, FRAME_MS);

// ── session events: what the driver saw, and turn bookkeeping ──────────────────────────────────────────
let seen = [];
const lifecycle = {
  agentStart: 0,
  agentEnd: 0,
  turnStart: 0,
  turnEnd: 0,
  compactions: 0,
  compactionFailures: 0,
  retries: 0,
  notices: [],
};
kernel.on(api.SESSION_EVENT, (event) => {
  if (event.type === "message_end") seen.push(JSON.stringify(event.message));
  else if (event.type === "agent_start") lifecycle.agentStart++;
  else if (event.type === "agent_end") lifecycle.agentEnd++;
  else if (event.type === "turn_start") lifecycle.turnStart++;
  else if (event.type === "turn_end") lifecycle.turnEnd++;
  else if (event.type === "compaction_end") {
    if (event.result !== null) lifecycle.compactions++;
    else if (event.errorMessage || event.aborted) lifecycle.compactionFailures++;
  } else if (event.type === "auto_retry_start") lifecycle.retries++;
  else if (event.type === "notice" && event.level !== "info") lifecycle.notices.push(event.message);
  shell.enqueue(() => view.call("handleEvent", event));
  shell.requestFrame();
});
kernel.on("tui:redraw", () => shell.requestFrame());
shell.enqueue(() => view.call("start", { cwd, ...VIEW, initialMessages: [] }));
shell.requestFrame();

// ── driver and rewriter ───────────────────────────────────────────────────────────────────────────────
let promptNumber = 0;
const driverErrors = [];
const driverRandom = seededRandom(SEED ^ 0x5bd1e995);

/** Prompts until `stop()` says so (checked between prompts); a user pauses 0–100 ms between them. */
async function drive(stop) {
  let prompts = 0;
  while (!stop(prompts)) {
    // Every LONG_EVERY-th prompt runs LONG_STEPS turns, longer than agent/session's 5 s gate deadline, so
    // reloads of the session that land in it are deferred to its end (the path the deadline exists for).
    const steps = (promptNumber + 1) % LONG_EVERY === 0 ? LONG_STEPS : 2 + Math.floor(driverRandom() * 3);
    try {
      await session.call("prompt", `prompt ${++promptNumber}: steps: ${steps}`);
    } catch (error) {
      driverErrors.push(`prompt ${promptNumber}: ${error?.message ?? error}`);
    }
    prompts++;
    await sleep(driverRandom() * 100);
  }
}

const rewriterRandom = seededRandom(SEED);
let revision = 0;

/** `count` saves in `order` (a plugin id each), at random moments; a plugin waits for its previous commit. */
async function rewriteAll(order, gapMs) {
  const records = [];
  const left = [...order];
  while (left.length > 0) {
    await sleep(gapMs());
    let index = left.findIndex((id) => !pending.has(id));
    if (index === -1) {
      await untilCommitted(() => left.some((id) => !pending.has(id)), COMMIT_TIMEOUT_MS);
      index = left.findIndex((id) => !pending.has(id));
      if (index === -1)
        throw new Error(
          `no reload committed within ${COMMIT_TIMEOUT_MS} ms; pending: ${[...pending.keys()].join(", ")}`,
        );
    }
    const plugin = left.splice(index, 1)[0];
    const kind = rewriterRandom() < 0.5 ? "mark" : "comment";
    const record = { n: records.length + 1, plugin, kind, savedAt: now(), gates: 0, deferred: [] };
    pending.set(plugin, record);
    Object.assign(record, rewrite(plugins[plugin], kind, `${runId}.${++revision}`, rewriterRandom));
    records.push(record);
  }
  await untilCommitted(() => records.every((r) => r.commitMs !== undefined), COMMIT_TIMEOUT_MS);
  return records;
}

const gap = () => randomGapMs(rewriterRandom, MEAN_GAP_MS);

// ── measurements at rest ──────────────────────────────────────────────────────────────────────────────
async function quiesce() {
  await session.call("idle");
  await kernel.idle();
  await shell.settle();
}

async function restingState() {
  await quiesce();
  await fullGc();
  const heap = process.memoryUsage().heapUsed;
  const resources = activeResources();
  const cpuMs = await idleCpuMs();
  return { heap, resources, cpuMs };
}

// ── warm-up: a few prompts and one reload of each plugin ─────────────────────────────────────────────
console.log(`soak: warm-up (${WARMUP_PROMPTS} prompts, one reload of each of ${CORE.length} plugins)`);
const warmStarted = now();
const [, warmRecords] = await Promise.all([drive((n) => n >= WARMUP_PROMPTS), rewriteAll(CORE, () => 150)]);
await quiesce();
if (warmRecords.some((r) => r.commitMs === undefined))
  throw new Error(
    `a warm-up reload never committed: ${JSON.stringify(warmRecords.filter((r) => r.commitMs === undefined).map((r) => r.plugin))}`,
  );
await session.call("newSession");
const soakSession = session.call("state").sessionFile;
const baseline = await restingState();
const warmupMs = now() - warmStarted;
console.log(
  `  warm-up ${round(warmupMs / 1000, 1)} s; heap after GC ${round(baseline.heap / MB)} MB; idle CPU ${round(baseline.cpuMs)} ms/s`,
);

// ── the soak ─────────────────────────────────────────────────────────────────────────────────────────
seen = [];
const lifecycleAtStart = { ...lifecycle, notices: [] };
lifecycle.notices = [];
const promptsBefore = promptNumber;
const errorsBefore = kernelErrors.length;
const retiredBefore = retiredCount;
console.log(
  `soak: ${RELOADS} reloads over ${EDITED.length} plugins while the session works (seed ${SEED}, plugins import "pi-host")`,
);
const soakStarted = now();
let rewriting = true;
const driving = drive(() => !rewriting);
const records = await rewriteAll(saveSchedule(RELOADS, EDITED, rewriterRandom), gap);
rewriting = false;
await driving;
await quiesce();
const soakMs = now() - soakStarted;
const soakPrompts = promptNumber - promptsBefore;
const lastAnswerSeen = (shell.lastFrame?.lines ?? []).some((line) => line.includes(`Prompt ${promptNumber} done`));

// ── the session file ─────────────────────────────────────────────────────────────────────────────────
const sessionCheck = checkSessionFile(soakSession, seen);
const afterSoak = { heap: process.memoryUsage().heapUsed };

// ── back at rest, in a fresh session as at the baseline ──────────────────────────────────────────────
await session.call("newSession");
const final = await restingState();
const liveGenerations = Object.fromEntries(
  [...CORE, "soak-models", "soak-settings"].map((id) => [id, kernel.liveGenerations(id)]),
);
const finalProbe = probe();
await fullGc();
const trackedCount = tracked.size;
const collectedCount = collected;
// pi's modules load only now, after every memory reading.
const piCheck = await piReads(soakSession, sessionCheck.counts.messages);

await watcher.close();
await kernel.shutdown();
rmSync(work, { recursive: true, force: true });

// ── numbers (bench/soak-report.mjs) ───────────────────────────────────────────────────────────────────
reportSoak({
  records,
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
  driverErrors,
  soakKernelErrors: kernelErrors.slice(errorsBefore),
  treeRoot: tree,
  retiredEvents: retiredCount - retiredBefore,
  config: {
    seed: SEED,
    reloads: RELOADS,
    imports: "pi-host",
    plugins: CORE,
    edited: EDITED,
    meanGapMs: MEAN_GAP_MS,
    tokensPerSecond: TOKENS_PER_SECOND,
    stepsPerPrompt: `2..4, every ${LONG_EVERY}th prompt ${LONG_STEPS}`,
    contextWindow: MODEL.contextWindow,
    compaction: SETTINGS.compaction,
    watchOptions: "defaults (stabilityMs 20, debounceMs 0)",
    view: VIEW,
  },
});
process.exit(0);

// ── helpers ──────────────────────────────────────────────────────────────────────────────────────────
