/**
 * The messages between the main thread and the sandbox worker: types, and one name. The worker's code is
 * shipped as source text (see sandbox-worker.ts), so both sides agree through these shapes alone.
 */

/** The bounds the worker enforces from inside (the main thread enforces time and memory from outside too). */
export interface WorkerLimits {
  /** Epoch milliseconds past which the script is interrupted and host functions refuse. */
  deadline: number;
  timeLimitMs: number;
  /** QuickJS's own allocator limit. */
  memoryLimitBytes: number;
  /** The WebAssembly memory's hard maximum, in 64 KiB pages: the linear memory cannot grow past it. */
  wasmMaxPages: number;
  maxOutputBytes: number;
  maxStackBytes: number;
  /** Tool calls one script may start; later calls reject inside the script. */
  maxToolCalls: number;
  /** The JSON size of one call's arguments. */
  maxArgumentBytes: number;
}

/** What the worker starts from (its `workerData`). */
export interface WorkerStart {
  code: string;
  /** The `tools.*` function names to install. */
  toolNames: string[];
  /**
   * Whether to install pi's discovery globals `searchTools(query, options?)`, `describeTool(name)` and
   * `describeNamespace(name)`:
   * each asks the main thread through a "call" named DISCOVERY_CALL whose arguments are
   * `[kind, ...args]` and whose text is the JSON answer ("" for undefined). Not counted as tool calls.
   */
  discovery: boolean;
  /** pi's `ALL_TOOLS`: every tool the script may call as `{ name, description }`, installed frozen. */
  allTools?: Array<{ name: string; description: string }>;
  limits: WorkerLimits;
  /** Absolute paths of the CommonJS entries of quickjs-emscripten-core and the release-sync variant. */
  corePath: string;
  variantPath: string;
  /** The QuickJS WebAssembly module, compiled once by the main thread. */
  wasmModule: WebAssembly.Module;
}

/** The reserved call name of the discovery globals (a NUL keeps it apart from every tool identifier). */
export const DISCOVERY_CALL = "\u0000discover";

/** What a finished script produced (the worker's last message). */
export interface WorkerOutcome {
  /** The script's return value, rendered and cut a little past the output limit. */
  returned?: string;
  /** Why the script did not finish: its uncaught error, or the limit that stopped it. */
  error?: string;
}

/** Worker → main. */
export type FromWorker =
  | { type: "print"; line: string }
  | { type: "output-truncated" }
  | { type: "call"; id: number; name: string; argsJson: string }
  | { type: "done"; outcome: WorkerOutcome };

/** Main → worker: a tool call's result. */
export interface SettleMessage {
  type: "settle";
  id: number;
  ok: boolean;
  text: string;
}
