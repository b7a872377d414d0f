/**
 * Runs a model-written script in a fresh QuickJS runtime (WebAssembly). The runtime has no file
 * system, network, process, timers or module loader — QuickJS's core language only — and the host
 * adds exactly two things: `console` (captured, capped) and `tools`, whose functions return promises
 * settled by the host. Calling them is the script's only power.
 *
 * Limits: wall time (an interrupt handler stops running code; a host timer stops a script that only
 * waits), memory (the runtime's allocator limit), stack depth, and captured output size.
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import { discardQuickJs, loadQuickJs } from "./quickjs.js";

/** The bounds of one run. */
export interface SandboxLimits {
  timeLimitMs: number;
  memoryLimitBytes: number;
  /** Console output kept; the rest is dropped and the run marked truncated. */
  maxOutputBytes: number;
  /** QuickJS's own stack limit: deep recursion fails inside the script instead of overflowing the host. */
  maxStackBytes: number;
}

/** A host function the script calls as `tools.<name>(args)`: resolves with text, rejects with an Error. */
export type SandboxFunction = (args: unknown) => Promise<string>;

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

/** The wrapper that lets scripts use `await` and `return` at top level. */
const PRELUDE = "(async () => {\n";
const SCRIPT_FILE = "codemode.js";

/** Runs `code` with `functions` installed as `tools.*`. Never throws for anything the script does. */
export async function runSandboxed(code: string, functions: Record<string, SandboxFunction>, limits: SandboxLimits, signal?: AbortSignal): Promise<SandboxOutcome> {
  const module = await loadQuickJs();
  const run = new SandboxRun(module, limits, signal);
  return run.execute(code, functions);
}

class SandboxRun {
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly deadline: number;
  private readonly output: string[] = [];
  private outputBytes = 0;
  private outputTruncated = false;
  private readonly pending = new Set<QuickJSDeferredPromise>();
  private scriptPromise: QuickJSHandle | undefined;
  private stop: "time" | "aborted" | undefined;
  private crash: string | undefined;
  private finished = false;
  private wake: () => void = () => {};

  constructor(
    private readonly module: QuickJSWASMModule,
    private readonly limits: SandboxLimits,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.deadline = Date.now() + limits.timeLimitMs;
    this.runtime = module.newRuntime();
    this.runtime.setMemoryLimit(limits.memoryLimitBytes);
    this.runtime.setMaxStackSize(limits.maxStackBytes);
    this.runtime.setInterruptHandler(() => this.shouldStop());
    this.runtime.setModuleLoader(() => ({ error: new Error("modules cannot be loaded in the codemode sandbox; call the functions on `tools` instead") }));
    this.vm = this.runtime.newContext();
  }

  private shouldStop(): boolean {
    if (this.stop === undefined && this.signal?.aborted) this.stop = "aborted";
    if (this.stop === undefined && Date.now() > this.deadline) this.stop = "time";
    return this.stop !== undefined;
  }

  async execute(code: string, functions: Record<string, SandboxFunction>): Promise<SandboxOutcome> {
    const stopped = new Promise<void>((resolve) => (this.wake = resolve));
    const timer = setTimeout(() => {
      this.stop ??= "time";
      this.wake();
    }, this.limits.timeLimitMs);
    const onAbort = (): void => {
      this.stop ??= "aborted";
      this.wake();
    };
    this.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      if (this.signal?.aborted) return this.outcome({ error: this.stopMessage("aborted") });
      this.installConsole();
      this.installTools(functions);
      const evaluated = this.vm.evalCode(`${PRELUDE}${code}\n})()`, SCRIPT_FILE);
      if (evaluated.error) return this.outcome({ error: this.stop ? this.stopMessage(this.stop) : this.errorText(evaluated.error) });
      this.scriptPromise = evaluated.value;
      const settled = this.vm.resolvePromise(evaluated.value);
      this.pump();
      const result = await Promise.race([settled, stopped.then(() => undefined)]);
      if (this.crash !== undefined) return this.outcome({ error: this.crash });
      if (result === undefined) return this.outcome({ error: this.stopMessage(this.stop ?? "time") });
      if (result.error) return this.outcome({ error: this.stop ? this.stopMessage(this.stop) : this.errorText(result.error) });
      const value: unknown = this.vm.dump(result.value);
      result.value.dispose();
      return this.outcome({ returned: render(value) });
    } catch (error) {
      // A failure of the host side itself (the host's stack overflowing inside WebAssembly, the module
      // aborting): this module is no longer trusted.
      this.crash ??= `the sandbox failed: ${(error as Error).message}`;
      return this.outcome({ error: this.crash });
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener("abort", onAbort);
      this.dispose();
    }
  }

  private outcome(result: { returned?: string; error?: string }): SandboxOutcome {
    return { output: this.output.join("\n"), outputTruncated: this.outputTruncated, ...result };
  }

  private stopMessage(stop: "time" | "aborted"): string {
    return stop === "aborted" ? "the script was aborted" : `the script was stopped at its time limit of ${this.limits.timeLimitMs} ms`;
  }

  /** Runs the jobs QuickJS has queued (promise reactions), then checks whether the script can still finish. */
  private pump(): void {
    if (this.finished) return;
    try {
      const jobs = this.runtime.executePendingJobs();
      if (jobs.error) jobs.error.dispose();
    } catch (error) {
      this.crash ??= `the sandbox failed: ${(error as Error).message}`;
    }
    if (this.crash !== undefined || this.stop !== undefined) {
      this.wake();
      return;
    }
    // Nothing queued, no tool call outstanding, and the script still waits: it never can finish.
    if (this.pending.size === 0 && this.scriptPromise !== undefined && this.vm.getPromiseState(this.scriptPromise).type === "pending") {
      this.crash = "the script is waiting for a promise that nothing can settle (only tool calls settle promises here; there are no timers)";
      this.wake();
    }
  }

  private installConsole(): void {
    const consoleObject = this.vm.newObject();
    for (const level of ["log", "info", "warn", "error", "debug"]) {
      const fn = this.vm.newFunction(level, (...args) => {
        this.print(args.map((arg) => formatArg(this.vm.dump(arg))).join(" "));
      });
      this.vm.setProp(consoleObject, level, fn);
      fn.dispose();
    }
    this.vm.setProp(this.vm.global, "console", consoleObject);
    consoleObject.dispose();
  }

  private print(line: string): void {
    if (this.outputTruncated) return;
    const bytes = Buffer.byteLength(line, "utf8") + 1;
    if (this.outputBytes + bytes > this.limits.maxOutputBytes) {
      this.outputTruncated = true;
      return;
    }
    this.outputBytes += bytes;
    this.output.push(line);
  }

  private installTools(functions: Record<string, SandboxFunction>): void {
    const toolsObject = this.vm.newObject();
    for (const [name, call] of Object.entries(functions)) {
      const fn = this.vm.newFunction(name, (argHandle) => {
        const args: unknown = argHandle === undefined ? undefined : this.vm.dump(argHandle);
        const deferred = this.vm.newPromise();
        this.pending.add(deferred);
        void call(args).then(
          (text) => this.settle(deferred, () => this.vm.newString(text), "resolve"),
          (error: unknown) => this.settle(deferred, () => this.vm.newError({ name: "Error", message: error instanceof Error ? error.message : String(error) }), "reject"),
        );
        return deferred.handle;
      });
      this.vm.setProp(toolsObject, name, fn);
      fn.dispose();
    }
    this.vm.setProp(this.vm.global, "tools", toolsObject);
    toolsObject.dispose();
  }

  /** Settles a tool call's promise inside the sandbox, unless the run is over. */
  private settle(deferred: QuickJSDeferredPromise, make: () => QuickJSHandle, how: "resolve" | "reject"): void {
    this.pending.delete(deferred);
    if (this.finished) return;
    try {
      const value = make();
      deferred[how](value);
      value.dispose();
      deferred.dispose();
    } catch (error) {
      this.crash ??= `the sandbox failed: ${(error as Error).message}`;
    }
    this.pump();
  }

  private errorText(handle: QuickJSHandle): string {
    const error: unknown = this.vm.dump(handle);
    handle.dispose();
    if (error === null || typeof error !== "object") return `uncaught ${formatArg(error)}`;
    const { name, message, stack } = error as { name?: string; message?: string; stack?: string };
    const where = /\(?codemode\.js:(\d+)(?::(\d+))?\)?/.exec(stack ?? "");
    const line = where ? ` (line ${Number(where[1]) - 1})` : "";
    const hint = message === "out of memory" ? ` (the sandbox's memory limit is ${Math.round(this.limits.memoryLimitBytes / 1024 / 1024)} MB)` : "";
    return `${name ?? "Error"}: ${message ?? ""}${hint}${line}`;
  }

  private dispose(): void {
    this.finished = true;
    if (this.crash !== undefined) {
      // Memory inside a crashed module is inconsistent; freeing it could abort. Drop the module whole.
      discardQuickJs(this.module);
      return;
    }
    try {
      for (const deferred of this.pending) deferred.dispose();
      this.pending.clear();
      this.scriptPromise?.dispose();
      this.vm.dispose();
      this.runtime.dispose();
    } catch {
      discardQuickJs(this.module);
    }
  }
}

/** A `console.log` argument as text: strings as is, the rest as compact JSON. */
function formatArg(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A return value as text: a string as is, anything else as indented JSON; nothing for undefined. */
function render(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
