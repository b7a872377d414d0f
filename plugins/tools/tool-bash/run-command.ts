/**
 * Runs one shell command in its own process group and reports how it ended. Stopping (abort, timeout,
 * or the plugin retiring) signals the whole group: SIGTERM first, SIGKILL after a grace period, so no
 * child or grandchild outlives the call.
 */
import { childProcess } from "pi-host";
import { groupExists, KILL_GRACE_MS, signalGroup } from "./process-group.js";
import type { RunningCommands } from "./running-commands.js";
import type { ShellConfig } from "./shell.js";
import type { CommandOutcome, CommandStopReason as StopReason } from "pi-host";

export type { CommandOutcome, CommandStopReason as StopReason } from "pi-host";

/** Everything one run needs. */
export interface CommandRun {
  shell: ShellConfig;
  script: string;
  cwd: string;
  /** Milliseconds, at most 2^31-1 (see timeout.ts); undefined means no timeout. */
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  /**
   * Receives stdout and stderr chunks in the order they arrive. Returning a promise pauses reading
   * until it settles (backpressure: the command blocks on a full pipe instead of filling memory).
   */
  onData: (chunk: Buffer) => void | Promise<void>;
  running: RunningCommands;
}

/** After the shell exits, how long output streams held open by escaped descendants may stay open. */
const STDIO_GRACE_MS = 100;

/** Spawns the shell and resolves with the outcome once it has ended and its output is drained. */
export function runCommand(run: CommandRun): Promise<CommandOutcome> {
  if (run.running.isClosed)
    return Promise.reject(new Error("the bash tool is being unloaded; the command was not started"));
  let stop: (reason: StopReason) => void = () => {};
  const ended = new Promise<CommandOutcome>((resolve, reject) => {
    const child = childProcess().spawn(run.shell.path, [...run.shell.args, run.script], {
      cwd: run.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    let stopReason: StopReason | undefined;
    let settled = false;
    let exited = false;
    let killed = false;
    let killTimer: NodeJS.Timeout | undefined;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let stdioTimer: NodeJS.Timeout | undefined;

    // Once the shell is gone, output pipes close when every process holding them has exited. A process
    // that left the group (setsid, a daemon) may hold them forever, so after a short quiet grace stop
    // reading. The grace counts from the last output read, and not while reading waits on the spill
    // file: output still coming, or still in the pipe, is never cut off.
    let draining = false;
    let paused = false;
    const armStdioTimer = () => {
      clearTimeout(stdioTimer);
      if (!draining || paused || settled) return;
      stdioTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        settle(() => resolve(outcome()));
      }, STDIO_GRACE_MS);
    };
    const closeStdioSoon = () => {
      if (draining) return;
      draining = true;
      armStdioTimer();
    };

    stop = (reason) => {
      if (stopReason !== undefined || settled || child.pid === undefined) return;
      stopReason = reason;
      const pgid = child.pid;
      signalGroup(pgid, "SIGTERM");
      killTimer = setTimeout(() => {
        killed = true;
        signalGroup(pgid, "SIGKILL");
        if (exited) closeStdioSoon();
      }, KILL_GRACE_MS);
    };
    const onAbort = () => stop("aborted");

    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(stdioTimer);
      run.signal?.removeEventListener("abort", onAbort);
      // Stragglers that ignored SIGTERM keep the kill timer; an empty group needs it no longer.
      if (killTimer !== undefined && child.pid !== undefined && !groupExists(child.pid)) clearTimeout(killTimer);
      finish();
    };

    const onData = (chunk: Buffer) => {
      const wait = run.onData(chunk);
      if (wait === undefined) return armStdioTimer();
      child.stdout.pause();
      child.stderr.pause();
      paused = true;
      clearTimeout(stdioTimer);
      const resume = () => {
        paused = false;
        child.stdout.resume();
        child.stderr.resume();
        armStdioTimer();
      };
      wait.then(resume, resume);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", (error) => {
      settle(() => reject(new Error(`Failed to start shell ${run.shell.path}: ${error.message}`)));
    });
    child.once("exit", () => {
      exited = true;
      // A stopped command's group still holding the pipes is waited for until it has been SIGKILLed;
      // background processes of a command that ended on its own may keep running (as in pi).
      if (stopReason === undefined || killed) closeStdioSoon();
    });
    child.once("close", () => settle(() => resolve(outcome())));

    const outcome = (): CommandOutcome =>
      stopReason !== undefined
        ? { kind: stopReason }
        : { kind: "exited", code: child.exitCode, signal: child.signalCode };

    if (run.timeoutMs !== undefined) timeoutTimer = setTimeout(() => stop("timed-out"), run.timeoutMs);
    if (run.signal !== undefined) {
      if (run.signal.aborted) onAbort();
      else run.signal.addEventListener("abort", onAbort, { once: true });
    }
  });
  run.running.add({ stop: (): void => stop("retired"), ended });
  return ended;
}
