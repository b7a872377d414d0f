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
import type { Worker } from "node:worker_threads";

/** How long a plugin's top level may run in the trial before the reload is refused. */
export const DEFAULT_TRIAL_DEADLINE_MS = 5_000;
/** How long the worker may take to start (load jiti and the host API) before the trial is skipped. */
const STARTUP_LIMIT_MS = 30_000;

/** The trial's verdict: `hung` refuses the reload; `ok` and `inconclusive` let the kernel load the source. */
export type TrialVerdict =
  | { outcome: "ok" }
  | { outcome: "hung"; deadlineMs: number }
  | { outcome: "inconclusive"; reason: string };

/** What a trial needs besides the source path. */
export interface TrialOptions {
  deadlineMs?: number;
}

/**
 * The worker: loads jiti and the host modules once, says "ready", then evaluates each source it is sent
 * (jiti's module cache off: every trial is a fresh evaluation) and answers "done" or "error".
 */
const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
// What a plugin's top level prints in the trial is not the user's output (stdout may carry a protocol): dropped.
process.stdout.write = () => true;
process.stderr.write = () => true;
for (const name of ["log", "info", "warn", "error", "debug", "trace", "dir"]) console[name] = () => {};
(async () => {
  const modules = {};
  for (const [name, url] of Object.entries(workerData.moduleUrls)) modules[name] = await import(url);
  if (modules["pi-host"] && modules["pi-host"].tsyringe) modules.tsyringe = modules["pi-host"].tsyringe;
  const { createJiti } = require(workerData.jitiPath);
  const jiti = createJiti(workerData.jitiPath, { moduleCache: false, fsCache: true, interopDefault: true, virtualModules: modules });
  parentPort.on("message", async ({ id, sourcePath }) => {
    try {
      await jiti.import(sourcePath, { default: true });
      parentPort.postMessage({ id, phase: "done" });
    } catch (error) {
      parentPort.postMessage({ id, phase: "error", message: String((error && error.message) || error) });
    }
  });
  parentPort.postMessage({ phase: "ready" });
})().catch((error) => parentPort.postMessage({ phase: "failed", message: String((error && error.message) || error) }));
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

type WorkerMessage = { id?: number; phase: "ready" | "done" | "error" | "failed"; message?: string };

/**
 * One warm trial worker: starting it (jiti and the host API) takes about a second on a slow machine, so
 * it starts once and serves trials one at a time; a worker whose trial hung is terminated and the next
 * trial starts a fresh one. It is unref'd: it never keeps the process alive.
 */
class TrialWorker {
  private worker: Worker | undefined;
  private ready: Promise<boolean> | undefined;
  private listeners = new Map<number, (message: WorkerMessage) => void>();
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();

  /** Starts the worker now, so the first trial does not wait for it. */
  warm(): void {
    if (this.worker === undefined) this.spawn();
  }

  /** Evaluates `sourcePath` in the worker within `deadlineMs`; trials run one at a time. */
  trial(sourcePath: string, deadlineMs: number): Promise<TrialVerdict> {
    const run = this.queue.then(() => this.run(sourcePath, deadlineMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Terminates the worker (a later trial starts a new one). */
  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    for (const listener of this.listeners.values())
      listener({ phase: "failed", message: "the trial worker was closed" });
    this.listeners.clear();
    void worker?.terminate();
  }

  private spawn(): void {
    let jitiPath: string;
    try {
      jitiPath = createRequire(import.meta.url).resolve("jiti");
    } catch {
      this.ready = Promise.resolve(false);
      return;
    }
    // node:worker_threads only when a trial really starts: a run that never reloads never loads it.
    const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { jitiPath, moduleUrls: hostModuleUrls() } });
    this.worker = worker;
    let started!: (ok: boolean) => void;
    this.ready = new Promise((resolve) => (started = resolve));
    const startTimer = setTimeout(() => started(false), STARTUP_LIMIT_MS);
    startTimer.unref();
    worker.on("message", (message: WorkerMessage) => {
      if (message.phase === "ready" || message.phase === "failed") {
        clearTimeout(startTimer);
        started(message.phase === "ready");
      }
      if (message.id !== undefined) this.listeners.get(message.id)?.(message);
    });
    const gone = (reason: string): void => {
      clearTimeout(startTimer);
      started(false);
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.ready = undefined;
      for (const listener of this.listeners.values()) listener({ phase: "failed", message: reason });
      this.listeners.clear();
    };
    worker.on("error", (error) => gone(error.message));
    worker.on("exit", () => gone("the trial worker exited"));
    // After the listeners (adding a "message" listener refs the worker's port again): idle, it holds nothing.
    worker.unref();
  }

  private async run(sourcePath: string, deadlineMs: number): Promise<TrialVerdict> {
    if (this.worker === undefined) this.spawn();
    const worker = this.worker;
    // While a trial is pending the worker keeps the process alive; idle, it does not.
    worker?.ref();
    try {
      return await this.runOn(worker, sourcePath, deadlineMs);
    } finally {
      worker?.unref();
    }
  }

  private async runOn(worker: Worker | undefined, sourcePath: string, deadlineMs: number): Promise<TrialVerdict> {
    if (!(await this.ready) || worker === undefined || this.worker !== worker) {
      this.close();
      return { outcome: "inconclusive", reason: "the trial worker could not start" };
    }
    const id = this.nextId++;
    return new Promise<TrialVerdict>((resolve) => {
      const timer = setTimeout(() => {
        this.listeners.delete(id);
        this.close();
        resolve({ outcome: "hung", deadlineMs });
      }, deadlineMs);
      this.listeners.set(id, (message) => {
        clearTimeout(timer);
        this.listeners.delete(id);
        resolve(
          message.phase === "done"
            ? { outcome: "ok" }
            : { outcome: "inconclusive", reason: message.message ?? "the trial failed" },
        );
      });
      worker.postMessage({ id, sourcePath: sourcePath.startsWith("file:") ? fileURLToPath(sourcePath) : sourcePath });
    });
  }
}

const shared = new TrialWorker();

/** Starts the trial worker ahead of the first reload (`pi --watch` calls this once it watches). */
export function warmTrialWorker(): void {
  shared.warm();
}

/** Stops the trial worker; the process would not wait for it anyway, but a host that ends tidily calls this. */
export function stopTrialWorker(): void {
  shared.close();
}

/** Evaluates `sourcePath` in the trial worker; resolves with the verdict, never rejects. */
export function trialLoad(sourcePath: string, options: TrialOptions = {}): Promise<TrialVerdict> {
  return shared.trial(sourcePath, options.deadlineMs ?? DEFAULT_TRIAL_DEADLINE_MS);
}
