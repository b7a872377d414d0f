/**
 * A freeze guard for live reloads: before the kernel evaluates a plugin's new source in the host's own
 * thread, the source is evaluated once in a worker thread with a deadline. A top level that never
 * finishes (`while (true) {}`) would otherwise stop the host's event loop for good: no RPC answers, no
 * signals, no redraws. The worker is terminated at the deadline and the reload is refused, so the old
 * generation keeps serving. Only a timeout refuses: any other outcome in the worker (an import it could
 * not resolve there, a throw) leaves the verdict to the kernel's own load, which reports it as usual.
 * The policy lives here, not in the kernel, which stays plugin-agnostic and small.
 */
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/** How long a plugin's top level may run in the trial before the reload is refused. */
export const DEFAULT_TRIAL_DEADLINE_MS = 5_000;
/** How long the worker may take to start (load jiti and the host API) before the trial is skipped. */
const STARTUP_LIMIT_MS = 30_000;

/** The trial's verdict: `hung` refuses the reload; `ok` and `inconclusive` let the kernel load the source. */
export type TrialVerdict = { outcome: "ok" } | { outcome: "hung"; deadlineMs: number } | { outcome: "inconclusive"; reason: string };

/** What a trial needs besides the source path. */
export interface TrialOptions {
  deadlineMs?: number;
}

/** The worker: loads jiti and the host modules, says "ready", evaluates the source, says "done". */
const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
(async () => {
  const modules = {};
  for (const [name, url] of Object.entries(workerData.moduleUrls)) modules[name] = await import(url);
  if (modules["pi-host"] && modules["pi-host"].tsyringe) modules.tsyringe = modules["pi-host"].tsyringe;
  const { createJiti } = require(workerData.jitiPath);
  const jiti = createJiti(workerData.sourcePath, { moduleCache: false, fsCache: true, interopDefault: true, virtualModules: modules });
  parentPort.postMessage({ phase: "ready" });
  await jiti.import(workerData.sourcePath, { default: true });
  parentPort.postMessage({ phase: "done" });
})().catch((error) => parentPort.postMessage({ phase: "error", message: String((error && error.message) || error) }));
`;

/** The modules a plugin may import by bare name, as the host's loader maps them (hosts/compose.ts). */
function hostModuleUrls(): Record<string, string> {
  const urls: Record<string, string> = {};
  // Built: this module is bundled into dist/, next to the public API entry dist/api.js.
  const api = new URL("./api.js", import.meta.url);
  if (api.protocol === "file:") urls["pi-host"] = api.href;
  try {
    urls["@sinclair/typebox"] = pathToFileURL(createRequire(import.meta.url).resolve("@sinclair/typebox")).href;
  } catch {
    // Not installed: plugins importing it fail in the kernel's load too, with the kernel's message.
  }
  return urls;
}

/** Evaluates `sourcePath` in a worker thread; resolves with the verdict, never rejects. */
export function trialLoad(sourcePath: string, options: TrialOptions = {}): Promise<TrialVerdict> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_TRIAL_DEADLINE_MS;
  let jitiPath: string;
  try {
    jitiPath = createRequire(import.meta.url).resolve("jiti");
  } catch (error) {
    return Promise.resolve({ outcome: "inconclusive", reason: `jiti not found: ${(error as Error).message}` });
  }
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { sourcePath: sourcePath.startsWith("file:") ? fileURLToPath(sourcePath) : sourcePath, jitiPath, moduleUrls: hostModuleUrls() },
      stdout: true,
      stderr: true,
    });
    const settle = (verdict: TrialVerdict): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(verdict);
    };
    let timer = setTimeout(() => settle({ outcome: "inconclusive", reason: "the trial worker did not start in time" }), STARTUP_LIMIT_MS);
    worker.on("message", (message: { phase: string; message?: string }) => {
      if (message.phase === "ready") {
        clearTimeout(timer);
        timer = setTimeout(() => settle({ outcome: "hung", deadlineMs }), deadlineMs);
      } else if (message.phase === "done") {
        settle({ outcome: "ok" });
      } else {
        settle({ outcome: "inconclusive", reason: message.message ?? "the trial failed" });
      }
    });
    worker.on("error", (error) => settle({ outcome: "inconclusive", reason: error.message }));
    worker.on("exit", () => settle({ outcome: "inconclusive", reason: "the trial worker exited early" }));
  });
}
