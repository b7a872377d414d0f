/**
 * `pi.exec(command, args, options)`: runs a program (no shell) and collects its output, as pi does —
 * never rejects: a program that cannot start reports code 1, one killed by the timeout or the abort
 * signal reports `killed: true`. The child is owned by the plugin generation (ownedSpawn), so a reload
 * or shutdown never leaves it running.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";

/** pi's ExecOptions. */
export interface ExecOptions {
  signal?: AbortSignal;
  /** Milliseconds before the process is killed. */
  timeout?: number;
  cwd?: string;
}

/** pi's ExecResult. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  code: number;
  killed: boolean;
}

/** How a process is started: the plugin context's owned spawn. */
export type Spawn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

const FORCE_KILL_MS = 5_000;

/** Runs `command` with `args` in `cwd` (or `options.cwd`). */
export function execCommand(
  spawn: Spawn,
  command: string,
  args: string[],
  cwd: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  if (typeof command !== "string" || command === "") return Promise.reject(new Error("exec needs a command name"));
  if (!Array.isArray(args))
    return Promise.reject(new Error(`exec("${command}", args) needs args as an array of strings`));
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let killed = false;
    let settled = false;
    let child: ChildProcess;
    let timer: NodeJS.Timeout | undefined;
    let forceTimer: NodeJS.Timeout | undefined;
    const finish = (code: number): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(forceTimer);
      options.signal?.removeEventListener("abort", kill);
      resolve({ stdout, stderr, code, killed });
    };
    const kill = (): void => {
      if (killed || settled) return;
      killed = true;
      child.kill("SIGTERM");
      forceTimer = setTimeout(
        () => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"),
        FORCE_KILL_MS,
      );
    };
    try {
      child = spawn(command, args, { cwd: options.cwd ?? cwd, shell: false, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      stderr = error instanceof Error ? error.message : String(error);
      finish(1);
      return;
    }
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", (error) => {
      if (stderr === "") stderr = error.message;
      finish(1);
    });
    child.once("close", (code) => finish(code ?? 0));
    if (options.signal?.aborted) kill();
    else options.signal?.addEventListener("abort", kill, { once: true });
    if (typeof options.timeout === "number" && options.timeout > 0) timer = setTimeout(kill, options.timeout);
  });
}
