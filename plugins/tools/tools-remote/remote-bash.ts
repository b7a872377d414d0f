/**
 * The remote `bash`: the command runs in the remote folder with pi's semantics — merged output kept as
 * a tail (2,000 lines / 50 KB) with the full log in a local temp file, a timeout, an abort. The command
 * runs in its own process group on the remote side (bash job control), whose id is reported first, so
 * stopping it (abort, timeout, the plugin unloading) kills the whole remote group: SIGTERM, then SIGKILL.
 */
import {
  BashParameters,
  bashDescription,
  bashOutcomeResult,
  bashScript,
  renderBashOutput,
  resolveTimeoutMs,
  TailOutput,
  ThrottledUpdates,
  TOOL_LIMITS,
  type AgentTool,
  type BashDetails,
  type CommandOutcome,
} from "pi-host";
import type { HostSource, RemoteHost } from "./remote-host.js";

/** Seconds between SIGTERM and SIGKILL of a stopped remote command (the local bash tool waits as long). */
const KILL_GRACE_SECONDS = 2;

/** Exit code the wrapper uses when the remote folder is gone. */
const NO_FOLDER = 199;

/**
 * Starts `$2` with `$3 -c` in folder `$1` as a job of its own process group, prints its id on stderr,
 * and exits with its status.
 */
const WRAPPER = `cd -- "$1" 2>/dev/null || exit ${NO_FOLDER}
set -m
"$3" -c "$2" </dev/null &
pid=$!
printf 'pi-remote-pid:%s\\n' "$pid" >&2
wait "$pid"`;

/** Without bash (no job control): the command runs in the wrapper's own group via setsid when there is one. */
const PLAIN_WRAPPER = `cd -- "$1" 2>/dev/null || exit ${NO_FOLDER}
printf 'pi-remote-pid:%s\\n' "$$" >&2
exec "$3" -c "$2" </dev/null`;

/** The remote commands of one plugin generation, stopped when it retires. */
export class RemoteCommands {
  private readonly stops = new Set<() => Promise<void>>();
  private closed = false;

  /** Whether new commands are refused (the generation is retiring). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Tracks a running command's stop function until `done` settles. */
  track(stop: () => Promise<void>, done: Promise<unknown>): void {
    this.stops.add(stop);
    void done.finally(() => this.stops.delete(stop));
  }

  /** Stops every running command and refuses new ones. */
  async stopAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.stops].map((stop) => stop().catch(() => {})));
  }
}

/** The remote `bash`. */
export function createRemoteBash(
  connection: HostSource,
  commands: RemoteCommands,
): AgentTool<typeof BashParameters, BashDetails | undefined> {
  const limits = TOOL_LIMITS;
  return {
    name: "bash",
    label: "bash",
    description: bashDescription(limits),
    parameters: BashParameters,
    async execute(_id, { command, timeout }, signal, onUpdate) {
      if (typeof command !== "string") throw new Error("bash: `command` must be a string");
      const timeoutMs = resolveTimeoutMs(timeout);
      if (signal?.aborted) throw new Error("Command aborted");
      if (commands.isClosed) throw new Error("the bash tool is being unloaded; the command was not started");
      const host = await connection.host();
      const output = new TailOutput(limits);
      const updates = new ThrottledUpdates(() => {
        const shown = renderBashOutput(output.snapshot(), limits, "");
        onUpdate?.({ content: [{ type: "text", text: shown.text }], details: shown.details });
      });
      onUpdate?.({ content: [], details: undefined });
      let outcome: CommandOutcome;
      try {
        outcome = await runRemote(host, bashScript(command, undefined), timeoutMs, signal, commands, (chunk) => {
          const keepGoing = output.append(chunk);
          if (onUpdate !== undefined) updates.changed();
          return keepGoing ? undefined : output.drained();
        });
      } finally {
        updates.stop();
        await output.close();
      }
      return bashOutcomeResult(outcome, output.snapshot(), limits, timeout);
    },
  };
}

async function runRemote(
  host: RemoteHost,
  script: string,
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
  commands: RemoteCommands,
  onData: (chunk: Buffer) => void | Promise<void>,
): Promise<CommandOutcome> {
  const { runner, facts } = host;
  const shell = facts.hasBash ? "bash" : "sh";
  let pid: string | undefined;
  let stderr = "";
  let stopReason: "aborted" | "timed-out" | "retired" | undefined;
  const stop = async (reason: "aborted" | "timed-out" | "retired"): Promise<void> => {
    if (stopReason !== undefined || pid === undefined) return;
    stopReason = reason;
    const group = pid;
    const kill = `kill -TERM -${group} 2>/dev/null || kill -TERM ${group} 2>/dev/null
n=0; while [ $n -lt ${KILL_GRACE_SECONDS * 10} ] && kill -0 -${group} 2>/dev/null; do sleep 0.1; n=$((n+1)); done
kill -KILL -${group} 2>/dev/null || kill -KILL ${group} 2>/dev/null; exit 0`;
    await runner.run(["sh", "-c", kill]).catch(() => {});
  };
  let pendingStop: "aborted" | "timed-out" | "retired" | undefined;
  const requestStop = (reason: "aborted" | "timed-out" | "retired") => {
    if (pid === undefined) pendingStop ??= reason;
    else void stop(reason);
  };
  const onAbort = () => requestStop("aborted");
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => requestStop("timed-out"), timeoutMs);
  const wrapper = facts.hasBash ? WRAPPER : PLAIN_WRAPPER;
  const ended = runner.run([shell, "-c", wrapper, "pi-remote", facts.root, script, shell], {
    onStdout: onData,
    onStderr: (chunk) => {
      if (pid !== undefined) return;
      stderr += chunk.toString("utf-8");
      const found = /pi-remote-pid:(\d+)\n/.exec(stderr);
      if (found === null) return;
      pid = found[1];
      if (pendingStop !== undefined) void stop(pendingStop);
    },
  });
  commands.track(() => stop("retired"), ended);
  try {
    const end = await ended;
    if (stopReason !== undefined) return { kind: stopReason };
    if (end.code === NO_FOLDER && pid === undefined)
      throw new Error(`Working directory does not exist: ${facts.root}. Cannot execute bash commands.`);
    // Neither an exit status nor a signal: the channel closed under the command (the connection dropped).
    if (end.code === null && end.signal === null)
      throw new Error(
        `Remote tools: the connection to ${runner.label} ended while the command ran; its outcome is unknown`,
      );
    return { kind: "exited", code: end.code, signal: end.signal };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
