/**
 * Runs a model-written script in a fresh QuickJS runtime (WebAssembly) inside a `worker_threads`
 * Worker. The runtime has no file system, network, process, timers or module loader — QuickJS's core
 * language only — and the host adds exactly two things: `console` (captured, capped) and `tools`,
 * whose functions return promises this thread settles. Calling them is the script's only power.
 *
 * Limits, and who enforces them:
 * - time: the worker's interrupt handler and every host function check the deadline, and this thread
 *   terminates the worker at the deadline whatever it is doing — a script spinning in one long
 *   operation never blocks this thread, so Esc (abort) and SIGTERM stay live;
 * - memory: the WebAssembly memory has a hard maximum (the limit plus QuickJS's own headroom), the
 *   worker's JavaScript heap has `resourceLimits`, and QuickJS's allocator limit fails ordinary
 *   allocations inside the script first;
 * - tool calls: at most `maxConcurrentToolCalls` at once, `maxToolCalls` in all, arguments of at most
 *   `maxArgumentBytes`; each call has its own AbortSignal, aborted when the script ends;
 * - stack depth and captured output size.
 */
import type { Worker } from "node:worker_threads";
import { CallGate } from "./call-gate.js";
import { loadQuickJsAssets } from "./quickjs.js";
import {
  DISCOVERY_CALL,
  type FromWorker,
  type SettleMessage,
  type WorkerLimits,
  type WorkerStart,
} from "./sandbox-protocol.js";
import { sandboxWorkerMain } from "./sandbox-worker.js";

/** The bounds of one run. */
export interface SandboxLimits {
  timeLimitMs: number;
  memoryLimitBytes: number;
  /** Console output kept; the rest is dropped and the run marked truncated. */
  maxOutputBytes: number;
  /** QuickJS's own stack limit: deep recursion fails inside the script instead of overflowing the host. */
  maxStackBytes: number;
  /** Tool calls one script may make; past it calls reject inside the script. */
  maxToolCalls: number;
  /** Tool calls running at once; further calls wait their turn. */
  maxConcurrentToolCalls: number;
  /** The JSON size of one call's arguments. */
  maxArgumentBytes: number;
}

/** A host function the script calls as `tools.<name>(args)`: resolves with text, rejects with an Error; `signal` aborts when the script ends. */
export type SandboxFunction = (args: unknown, signal: AbortSignal) => Promise<string>;

/** What a run produced. */
export interface SandboxOutcome {
  /** Everything the script printed through `console`, up to the output limit. */
  output: string;
  outputTruncated: boolean;
  /** The script's return value, rendered (a string as is, anything else as JSON); undefined if it returned nothing. */
  returned?: string;
  /** Why the script did not finish, in one line: its uncaught error, or the limit that stopped it. */
  error?: string;
}

/** Room in the WebAssembly memory for QuickJS itself (its static data and stack) above the limit. */
const WASM_HEADROOM_BYTES = 16 * 1024 * 1024;
/** The memory the QuickJS build starts with: the maximum can be no lower. */
const WASM_INITIAL_BYTES = 16 * 1024 * 1024;
const WASM_PAGE_BYTES = 64 * 1024;
/** The QuickJS build's own ceiling for its memory (2 GB): an imported memory may not declare more. */
const WASM_MAX_PAGES = 32_768;
/** The worker's own JavaScript heap (QuickJS's glue, arguments and output in transit), in MB. */
const WORKER_OLD_HEAP_MB = 32;
const WORKER_YOUNG_HEAP_MB = 8;

/**
 * Answers a script's `searchTools(...)` / `describeTool(...)` / `describeNamespace(...)` (`kind` names
 * which); throws for bad arguments.
 */
export type Discover = (kind: string, args: unknown[]) => unknown;

/** Runs `code` with `functions` installed as `tools.*`. Never throws for anything the script does. */
export async function runSandboxed(
  code: string,
  functions: Record<string, SandboxFunction>,
  limits: SandboxLimits,
  signal?: AbortSignal,
  discover?: Discover,
  allTools?: ReadonlyArray<{ name: string; description: string }>,
): Promise<SandboxOutcome> {
  const deadline = Date.now() + limits.timeLimitMs;
  if (signal?.aborted) return { output: "", outputTruncated: false, error: "the script was aborted" };
  let assets;
  try {
    assets = await loadQuickJsAssets();
  } catch (error) {
    return { output: "", outputTruncated: false, error: (error as Error).message };
  }
  // The build cannot address more than 2 GB: a larger configured limit means "as much as it can".
  const memoryLimitBytes = Math.min(limits.memoryLimitBytes, WASM_MAX_PAGES * WASM_PAGE_BYTES - WASM_HEADROOM_BYTES);
  const wasmMaxBytes = Math.max(memoryLimitBytes, WASM_INITIAL_BYTES) + WASM_HEADROOM_BYTES;
  const workerLimits: WorkerLimits = {
    deadline,
    timeLimitMs: limits.timeLimitMs,
    memoryLimitBytes,
    wasmMaxPages: Math.min(WASM_MAX_PAGES, Math.ceil(wasmMaxBytes / WASM_PAGE_BYTES)),
    maxOutputBytes: limits.maxOutputBytes,
    maxStackBytes: limits.maxStackBytes,
    maxToolCalls: limits.maxToolCalls,
    maxArgumentBytes: limits.maxArgumentBytes,
  };
  const start: WorkerStart = {
    code,
    toolNames: Object.keys(functions),
    discovery: discover !== undefined,
    ...(allTools !== undefined && { allTools: [...allTools] }),
    limits: workerLimits,
    ...assets,
  };
  // Loaded here, not at import: a session that never runs a script never touches worker_threads.
  const { Worker: WorkerClass } = await import("node:worker_threads");
  return new SandboxRun(WorkerClass, start, functions, limits, signal, discover).outcome;
}

/** One script's worker, seen from the main thread. */
class SandboxRun {
  readonly outcome: Promise<SandboxOutcome>;
  private readonly worker: Worker;
  private readonly gate: CallGate;
  private readonly output: string[] = [];
  private outputTruncated = false;
  private finished = false;
  private resolve: (outcome: SandboxOutcome) => void = () => {};
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = (): void => this.finish({ error: "the script was aborted" });

  constructor(
    WorkerClass: typeof Worker,
    start: WorkerStart,
    private readonly functions: Record<string, SandboxFunction>,
    private readonly limits: SandboxLimits,
    private readonly signal: AbortSignal | undefined,
    private readonly discover: Discover | undefined,
  ) {
    this.outcome = new Promise((resolve) => (this.resolve = resolve));
    this.gate = new CallGate(limits.maxConcurrentToolCalls, limits.maxToolCalls);
    this.worker = new WorkerClass(`(${sandboxWorkerMain.toString()})(require);`, {
      eval: true,
      workerData: start,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_HEAP_MB },
      // The worker prints nothing; its streams are kept off the user's terminal all the same.
      stdout: true,
      stderr: true,
    });
    this.worker.on("message", (message: FromWorker) => this.onMessage(message));
    this.worker.on("error", (error: Error & { code?: string }) => {
      const memoryMb = Math.round(limits.memoryLimitBytes / 1024 / 1024);
      this.finish({
        error:
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? `the script was stopped at its memory limit of ${memoryMb} MB`
            : `the sandbox failed: ${error.message}`,
      });
    });
    this.worker.on("exit", (code) => this.finish({ error: `the sandbox stopped unexpectedly (exit code ${code})` }));
    this.timer = setTimeout(
      () => this.finish({ error: `the script was stopped at its time limit of ${limits.timeLimitMs} ms` }),
      Math.max(0, start.limits.deadline - Date.now()),
    );
    signal?.addEventListener("abort", this.onAbort, { once: true });
    // Aborted while the assets loaded: the listener above will never fire.
    if (signal?.aborted) this.onAbort();
  }

  private onMessage(message: FromWorker): void {
    if (this.finished) return;
    switch (message.type) {
      case "print":
        this.output.push(message.line);
        return;
      case "output-truncated":
        this.outputTruncated = true;
        return;
      case "call":
        this.call(message.id, message.name, message.argsJson);
        return;
      case "done":
        this.finish(message.outcome);
        return;
    }
  }

  /** Runs one tool call through the gate and sends its result back, unless the script is over by then. */
  private call(id: number, name: string, argsJson: string): void {
    const fn = this.functions[name];
    const answer = (ok: boolean, text: string): void => {
      if (!this.finished) this.worker.postMessage({ type: "settle", id, ok, text } satisfies SettleMessage);
    };
    if (name === DISCOVERY_CALL && this.discover !== undefined) {
      // searchTools() / describeTool(): answered here, at once, outside the tool-call gate and count.
      try {
        const [kind, ...args] = JSON.parse(argsJson) as [string, ...unknown[]];
        const value = this.discover(kind, args);
        return answer(true, value === undefined ? "" : JSON.stringify(value));
      } catch (error) {
        return answer(false, error instanceof Error ? error.message : String(error));
      }
    }
    if (fn === undefined) return answer(false, `no tool "${name}"`);
    if (Buffer.byteLength(argsJson, "utf8") > this.limits.maxArgumentBytes)
      return answer(
        false,
        `tool call refused: its arguments exceed ${Math.round(this.limits.maxArgumentBytes / 1024)} KB`,
      );
    this.gate
      .run((signal) => fn(JSON.parse(argsJson) as unknown, signal))
      .then(
        (text) => answer(true, text),
        (error: unknown) => answer(false, error instanceof Error ? error.message : String(error)),
      );
  }

  /** Ends the run once: the worker terminated, calls aborted, timer and listener removed. */
  private finish(result: { returned?: string; error?: string }): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
    this.gate.abortAll();
    void this.worker.terminate();
    this.resolve({ output: this.output.join("\n"), outputTruncated: this.outputTruncated, ...result });
  }
}
