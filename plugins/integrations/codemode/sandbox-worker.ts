/**
 * The sandbox worker's side: runs one script in a fresh QuickJS runtime inside a `worker_threads`
 * Worker, whose WebAssembly memory has a hard maximum, and asks the main thread to run every tool call.
 *
 * The worker is started from this function's source text (`new Worker(source, { eval: true })`), so
 * the same code runs from the TypeScript sources under test and from the bundle, without a separate
 * build entry. That is why the function is self-contained: it references nothing from its module but
 * types, and loads what it needs through `load` (the worker's CommonJS `require`).
 */
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSSyncVariant,
} from "quickjs-emscripten-core";
import type { FromWorker, SettleMessage, WorkerStart } from "./sandbox-protocol.js";

/** The worker's entry: `(${sandboxWorkerMain})(require)`. Posts `done` exactly once, whatever the script does. */
export function sandboxWorkerMain(load: (id: string) => unknown): void {
  const { parentPort, workerData } = load("node:worker_threads") as typeof import("node:worker_threads");
  const start = workerData as WorkerStart;
  const { limits } = start;
  const port = parentPort!;
  const post = (message: FromWorker): void => port.postMessage(message);
  /** The wrapper that lets scripts use `await` and `return` at top level (one line, so line numbers shift by one). */
  const PRELUDE = "(async () => {\n";
  const SCRIPT_FILE = "codemode.js";

  const formatArg = (value: unknown): string => {
    if (typeof value === "string") return value;
    if (value === undefined) return "undefined";
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  const render = (value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    let text: string;
    if (typeof value === "string") text = value;
    else {
      try {
        text = JSON.stringify(value, null, 2) ?? String(value);
      } catch {
        text = String(value);
      }
    }
    // The caller cuts at the output limit and says so; one character past it is enough to tell.
    return text.length > limits.maxOutputBytes + 1 ? text.slice(0, limits.maxOutputBytes + 1) : text;
  };
  const memoryMb = Math.round(limits.memoryLimitBytes / 1024 / 1024);

  const run = async (): Promise<{ returned?: string; error?: string }> => {
    const core = load(start.corePath) as typeof import("quickjs-emscripten-core");
    const base = (load(start.variantPath) as { default: QuickJSSyncVariant }).default;
    // The linear memory starts at its hard maximum and never grows. Growing would detach the ArrayBuffer
    // under the typed arrays the QuickJS bindings keep for a context's whole life (its out-parameters),
    // and a later host call reading them would fail with a "detached ArrayBuffer" error instead of
    // running; untouched pages cost no resident memory, so reserving the maximum is free.
    const memory = new WebAssembly.Memory({ initial: limits.wasmMaxPages, maximum: limits.wasmMaxPages });
    // Emscripten asks for more through `memory.grow`; a refusal there means the hard maximum was hit.
    let growRefused = false;
    const grow = memory.grow.bind(memory);
    memory.grow = (pages: number): number => {
      try {
        return grow(pages);
      } catch (error) {
        growRefused = true;
        throw error;
      }
    };
    const variant = core.newVariant(base, {
      wasmModule: start.wasmModule,
      wasmMemory: memory,
      emscriptenModule: { printErr: () => {} } as never,
    });
    const module = await core.newQuickJSWASMModuleFromVariant(variant);
    /** Whether the linear memory hit its hard maximum: a failure after that is a lack of memory. */
    const memoryExhausted = (): boolean => growRefused;
    const outOfMemory = `InternalError: out of memory (the sandbox's memory limit is ${memoryMb} MB)`;
    const runtime: QuickJSRuntime = module.newRuntime();
    let stop: "time" | undefined;
    const shouldStop = (): boolean => {
      if (stop === undefined && Date.now() > limits.deadline) stop = "time";
      return stop !== undefined;
    };
    runtime.setMemoryLimit(limits.memoryLimitBytes);
    runtime.setMaxStackSize(limits.maxStackBytes);
    runtime.setInterruptHandler(shouldStop);
    runtime.setModuleLoader(() => ({
      error: new Error("modules cannot be loaded in the codemode sandbox; call the functions on `tools` instead"),
    }));
    const vm: QuickJSContext = runtime.newContext();
    const stopMessage = (): string => `the script was stopped at its time limit of ${limits.timeLimitMs} ms`;

    const errorText = (handle: QuickJSHandle): string => {
      const error: unknown = vm.dump(handle);
      handle.dispose();
      if (error === null || typeof error !== "object") return `uncaught ${formatArg(error)}`;
      const { name, message, stack } = error as { name?: string; message?: string; stack?: string };
      const where = /\(?codemode\.js:(\d+)(?::(\d+))?\)?/.exec(stack ?? "");
      const line = where ? ` (line ${Number(where[1]) - 1})` : "";
      const hint = message === "out of memory" ? ` (the sandbox's memory limit is ${memoryMb} MB)` : "";
      return `${name ?? "Error"}: ${message ?? ""}${hint}${line}`;
    };

    // console: captured up to the output limit, each kept line sent to the main thread at once, so
    // what a script printed survives even when the worker is terminated later.
    let outputBytes = 0;
    let outputTruncated = false;
    const print = (line: string): void => {
      if (outputTruncated) return;
      const bytes = Buffer.byteLength(line, "utf8") + 1;
      if (outputBytes + bytes > limits.maxOutputBytes) {
        outputTruncated = true;
        post({ type: "output-truncated" });
        return;
      }
      outputBytes += bytes;
      post({ type: "print", line });
    };
    const consoleObject = vm.newObject();
    for (const level of ["log", "info", "warn", "error", "debug"]) {
      const fn = vm.newFunction(level, (...args) => print(args.map((arg) => formatArg(vm.dump(arg))).join(" ")));
      vm.setProp(consoleObject, level, fn);
      fn.dispose();
    }
    vm.setProp(vm.global, "console", consoleObject);
    consoleObject.dispose();

    // tools: each call becomes a promise settled by the main thread's answer.
    const pending = new Map<number, QuickJSDeferredPromise>();
    let calls = 0;
    /** Ids of outstanding host calls: tool calls and discovery questions alike. */
    let callIds = 0;
    let finished = false;
    let crash: string | undefined;
    let scriptPromise: QuickJSHandle | undefined;
    let wake: () => void = () => {};
    /** Refused calls' promises, rejected at once and freed at the next pump (the script holds the handle until then). */
    const refused: QuickJSDeferredPromise[] = [];
    const refuse = (message: string): QuickJSHandle => {
      const deferred = vm.newPromise();
      const error = vm.newError({ name: "Error", message });
      deferred.reject(error);
      error.dispose();
      refused.push(deferred);
      return deferred.handle;
    };
    const toolsObject = vm.newObject();
    for (const name of start.toolNames) {
      const fn = vm.newFunction(name, (argHandle) => {
        if (shouldStop()) return refuse(stopMessage());
        if (calls >= limits.maxToolCalls)
          return refuse(`tool call refused: a script may make at most ${limits.maxToolCalls} tool calls`);
        let argsJson: string;
        try {
          argsJson = JSON.stringify(argHandle === undefined ? undefined : vm.dump(argHandle)) ?? "null";
        } catch (error) {
          return refuse(`tool call refused: its arguments cannot be sent as JSON (${(error as Error).message})`);
        }
        if (Buffer.byteLength(argsJson, "utf8") > limits.maxArgumentBytes) {
          return refuse(`tool call refused: its arguments exceed ${Math.round(limits.maxArgumentBytes / 1024)} KB`);
        }
        calls++;
        const id = ++callIds;
        const deferred = vm.newPromise();
        pending.set(id, deferred);
        post({ type: "call", id, name, argsJson });
        return deferred.handle;
      });
      vm.setProp(toolsObject, name, fn);
      fn.dispose();
    }
    vm.setProp(vm.global, "tools", toolsObject);
    toolsObject.dispose();

    // pi's searchTools() / describeTool(): answered by the main thread as JSON text, parsed in here.
    if (start.discovery) {
      const discover = vm.newFunction("__codemode_discover", (argHandle) => {
        if (shouldStop()) return refuse(stopMessage());
        let argsJson: string;
        try {
          argsJson = JSON.stringify(vm.dump(argHandle)) ?? "null";
        } catch (error) {
          return refuse(`its arguments cannot be sent as JSON (${(error as Error).message})`);
        }
        if (Buffer.byteLength(argsJson, "utf8") > limits.maxArgumentBytes)
          return refuse(`its arguments exceed ${Math.round(limits.maxArgumentBytes / 1024)} KB`);
        const id = ++callIds;
        const deferred = vm.newPromise();
        pending.set(id, deferred);
        post({ type: "call", id, name: "\u0000discover", argsJson });
        return deferred.handle;
      });
      vm.setProp(vm.global, "__codemode_discover", discover);
      discover.dispose();
      const installed = vm.evalCode(
        [
          "(() => {",
          "  const ask = __codemode_discover;",
          "  const answer = async (args) => { const text = await ask(args); return text === '' ? undefined : JSON.parse(text); };",
          "  globalThis.searchTools = (...args) => answer(['searchTools', ...args]);",
          "  globalThis.describeTool = (...args) => answer(['describeTool', ...args]);",
          "  globalThis.describeNamespace = (...args) => answer(['describeNamespace', ...args]);",
          "  delete globalThis.__codemode_discover;",
          "})()",
        ].join("\n"),
        "codemode-discovery.js",
      );
      if (installed.error) installed.error.dispose();
      else installed.value.dispose();
    }

    // pi's ALL_TOOLS: a frozen array of frozen { name, description } entries.
    if (start.allTools !== undefined) {
      const literal = JSON.stringify(JSON.stringify(start.allTools));
      const installed = vm.evalCode(
        `globalThis.ALL_TOOLS = Object.freeze(JSON.parse(${literal}).map((t) => Object.freeze(t)));`,
        "codemode-all-tools.js",
      );
      if (installed.error) installed.error.dispose();
      else installed.value.dispose();
    }

    /** Runs the jobs QuickJS has queued (promise reactions), then checks whether the script can still finish. */
    const pump = (): void => {
      if (finished) return;
      try {
        const jobs = runtime.executePendingJobs();
        if (jobs.error) jobs.error.dispose();
        for (const deferred of refused.splice(0)) deferred.dispose();
      } catch (error) {
        crash ??= `the sandbox failed: ${(error as Error).message}`;
      }
      if (crash !== undefined || stop !== undefined) {
        wake();
        return;
      }
      // Nothing queued, no tool call outstanding, and the script still waits: it never can finish.
      if (pending.size === 0 && scriptPromise !== undefined && vm.getPromiseState(scriptPromise).type === "pending") {
        crash =
          "the script is waiting for a promise that nothing can settle (only tool calls settle promises here; there are no timers)";
        wake();
      }
    };
    port.on("message", (message: SettleMessage) => {
      const deferred = pending.get(message.id);
      if (deferred === undefined || finished) return;
      pending.delete(message.id);
      try {
        const value = message.ok ? vm.newString(message.text) : vm.newError({ name: "Error", message: message.text });
        if (message.ok) deferred.resolve(value);
        else deferred.reject(value);
        value.dispose();
        deferred.dispose();
      } catch (error) {
        crash ??= `the sandbox failed: ${(error as Error).message}`;
      }
      pump();
    });

    // QuickJS's allocator limit undercounts (this build cannot see block sizes), so the hard maximum
    // of the linear memory is often what stops a hog; whatever failed then (an error that could not
    // even be allocated, a host-side copy) is reported as what it is.
    const failed = (error: string): { error: string } => ({
      error: memoryExhausted() && !error.includes("out of memory") && stop === undefined ? outOfMemory : error,
    });
    const stopped = new Promise<void>((resolve) => (wake = resolve));
    const evaluated = vm.evalCode(`${PRELUDE}${start.code}\n})()`, SCRIPT_FILE);
    if (evaluated.error) return failed(stop ? stopMessage() : errorText(evaluated.error));
    scriptPromise = evaluated.value;
    const settled = vm.resolvePromise(evaluated.value);
    pump();
    const result = await Promise.race([settled, stopped.then(() => undefined)]);
    finished = true;
    if (crash !== undefined) return failed(crash);
    if (result === undefined) return { error: stopMessage() };
    if (result.error) return failed(stop ? stopMessage() : errorText(result.error));
    const value: unknown = vm.dump(result.value);
    result.value.dispose();
    const returned = render(value);
    return returned === undefined ? {} : { returned };
    // Nothing is disposed: the worker ends right after this, taking the whole module with it.
  };

  run().then(
    (outcome) => post({ type: "done", outcome }),
    (error: unknown) =>
      post({
        type: "done",
        outcome: { error: `the sandbox failed: ${error instanceof Error ? error.message : String(error)}` },
      }),
  );
}
