/**
 * Runs npm and git for the package manager: output captured (the tail goes into the error message, so a
 * failed `npm install` says why in one line), the child in its own process group so an abort or the
 * plugin's retirement stops npm's scripts too, and credential prompts off so nothing waits for a terminal.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";

/** Starts a child process; the plugin passes its owned `ownedSpawn(ctx, …)`, tests may pass node's. */
export type Spawner = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** What a finished command printed. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
}

/** A command that failed: the message is one line with the command and the last lines it printed. */
export class CommandFailedError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly output: string,
  ) {
    super(
      `${command} failed (${exitCode === null ? "killed" : `exit code ${exitCode}`})${output === "" ? "" : `: ${output}`}`,
    );
    this.name = "CommandFailedError";
  }
}

/** How many trailing lines of a failed command's output go into its error message. */
const TAIL_LINES = 6;

/** How long an aborted command's process group has to exit after SIGTERM before it gets SIGKILL. */
const KILL_GRACE_MS = 5_000;

/**
 * Runs `command args` to completion; rejects with CommandFailedError on a non-zero exit or abort.
 * `label` names the step in messages (e.g. "npm install foo@1.0.0") instead of the whole command line.
 */
export function runCommand(
  spawn: Spawner,
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal; label?: string } = {},
): Promise<CommandOutput> {
  const shown = options.label ?? [command, ...args].join(" ");
  if (options.signal?.aborted) return Promise.reject(new Error(`${shown}: cancelled`));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), GIT_TERMINAL_PROMPT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let forceKill: NodeJS.Timeout | undefined;
    const signalGroup = (signal: NodeJS.Signals): void => {
      // The whole group, even after npm itself exited: its scripts' processes may still hold the pipes.
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const stop = (): void => {
      signalGroup("SIGTERM");
      // A group that ignores SIGTERM (a hung install script) is killed outright after a grace period.
      forceKill = setTimeout(() => signalGroup("SIGKILL"), KILL_GRACE_MS);
      forceKill.unref();
    };
    options.signal?.addEventListener("abort", stop, { once: true });
    child.once("error", (error) => {
      options.signal?.removeEventListener("abort", stop);
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      reject(
        new Error(
          missing
            ? `${command} is not installed or not on PATH; install it and try again`
            : `${shown}: ${error.message}`,
        ),
      );
    });
    child.once("close", (code) => {
      clearTimeout(forceKill);
      options.signal?.removeEventListener("abort", stop);
      if (options.signal?.aborted) reject(new Error(`${shown}: cancelled`));
      else if (code === 0) resolve({ stdout, stderr });
      else reject(new CommandFailedError(shown, code, tail(`${stderr}\n${stdout}`)));
    });
  });
}

/** The last meaningful lines of a command's output, joined into one line. */
function tail(output: string): string {
  const lines = output
    .split("\n")
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter((line) => line !== "" && !/complete log of this run/i.test(line));
  return lines.slice(-TAIL_LINES).join(" | ");
}
