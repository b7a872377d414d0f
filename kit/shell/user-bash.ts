/**
 * A user's shell run (pi's `!command`, the RPC `bash` command): the user, not the model, runs a shell
 * command in the session's folder. The RPC mode and the terminal UI share this one copy. Output is stdout and stderr merged, ANSI codes and carriage returns removed,
 * and kept to pi's tail limits (2,000 lines, 50 KB); when cut, the whole output is in a temp file
 * (`fullOutputPath`). The command runs as the leader of its own process group, so aborting it stops
 * everything it started.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { createWriteStream, existsSync, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOL_LIMITS } from "../../contracts/tool.js";
import { nodeCrypto } from "../process/node-builtins.js";

/** pi's BashResult, as the `bash` response's data. */
export interface BashResult {
  output: string;
  /** Undefined when the command was cancelled or killed by a signal. */
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
}

/** pi's BashExecutionMessage: the record of a user shell run that the model sees on the next prompt. */
export interface BashExecutionMessage extends BashResult {
  role: "bashExecution";
  command: string;
  /** pi's `!!`: kept in the session and shown, left out of the model's context. */
  excludeFromContext?: boolean;
  timestamp: number;
  [key: string]: unknown;
}

/** Starts a process; the plugin passes `ownedSpawn(ctx, …)`, so the kernel owns the child. */
export type UserBashSpawn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** How long a cancelled command's group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1_000;

/** Runs `command` with `<shell> -c` in `cwd`; resolves when it has ended and its output is saved. */
export async function runUserBash(
  command: string,
  cwd: string,
  spawn: UserBashSpawn,
  signal: AbortSignal,
): Promise<BashResult> {
  const output = new OutputTail();
  const shell = existsSync("/bin/bash") ? "/bin/bash" : "sh";
  const child = spawn(shell, ["-c", command], {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env,
  });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      signalGroup(child, "SIGTERM");
      killTimer = setTimeout(() => signalGroup(child, "SIGKILL"), KILL_GRACE_MS);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    child.stdout?.on("data", (chunk: Buffer) => output.add(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.add(chunk));
    child.once("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(killTimer);
      reject(new Error(`could not start ${shell}: ${error.message}`));
    });
    // "close": the process has exited and its output streams are drained.
    child.once("close", (code) => {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(killTimer);
      resolve(code);
    });
  });
  const cancelled = signal.aborted;
  const { text, truncated, fullOutputPath } = await output.finish();
  return {
    output: text,
    exitCode: cancelled || exitCode === null ? undefined : exitCode,
    cancelled,
    truncated,
    ...(fullOutputPath !== undefined && { fullOutputPath }),
  };
}

/** The message pi appends for a user shell run; `excludeFromContext` (pi's `!!`) keeps it from the model. */
export function bashExecutionMessage(
  command: string,
  result: BashResult,
  excludeFromContext = false,
): BashExecutionMessage {
  return {
    role: "bashExecution",
    command,
    ...result,
    ...(excludeFromContext && { excludeFromContext: true }),
    timestamp: Date.now(),
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // No group (it is gone, or was never made): reach the shell itself.
    child.kill(signal);
  }
}

/**
 * Collects output: everything while it is small; past the byte limit, everything goes to a temp file
 * and memory keeps a rolling tail twice the limit, enough to cut the shown tail from.
 */
class OutputTail {
  private readonly decoder = new TextDecoder();
  private chunks: string[] = [];
  private held = 0;
  private total = 0;
  private spill: { path: string; stream: WriteStream } | undefined;

  add(chunk: Buffer): void {
    this.total += chunk.length;
    this.keep(clean(this.decoder.decode(chunk, { stream: true })));
  }

  async finish(): Promise<{ text: string; truncated: boolean; fullOutputPath?: string }> {
    this.keep(clean(this.decoder.decode()));
    const whole = this.chunks.join("");
    const { text, truncated } = tailOf(whole);
    if (truncated) this.startSpill();
    if (this.spill === undefined) return { text, truncated };
    const { path, stream } = this.spill;
    await new Promise<void>((resolve) => {
      stream.once("error", () => resolve());
      stream.end(resolve);
    });
    return { text, truncated, fullOutputPath: path };
  }

  private keep(text: string): void {
    if (text === "") return;
    if (this.total > TOOL_LIMITS.maxBytes) this.startSpill();
    this.spill?.stream.write(text);
    this.chunks.push(text);
    this.held += text.length;
    while (this.held > TOOL_LIMITS.maxBytes * 2 && this.chunks.length > 1) this.held -= this.chunks.shift()!.length;
  }

  private startSpill(): void {
    if (this.spill !== undefined) return;
    const path = join(tmpdir(), `pi-bash-${nodeCrypto().randomBytes(8).toString("hex")}.log`);
    const stream = createWriteStream(path);
    stream.on("error", () => {});
    for (const chunk of this.chunks) stream.write(chunk);
    this.spill = { path, stream };
  }
}

/** Terminal colour codes and carriage returns mean nothing in a transcript. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g, "")
    .replace(/\r/g, "");
}

/** The last lines of `text` within pi's limits (2,000 lines, 50 KB); a single longer line keeps its end. */
export function tailOf(text: string): { text: string; truncated: boolean } {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const lines = body.split("\n");
  if (lines.length <= TOOL_LIMITS.maxLines && Buffer.byteLength(body) <= TOOL_LIMITS.maxBytes)
    return { text, truncated: false };
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0 && kept.length < TOOL_LIMITS.maxLines; i--) {
    const size = Buffer.byteLength(lines[i]!) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > TOOL_LIMITS.maxBytes) {
      if (kept.length === 0) kept.unshift(lastBytes(lines[i]!, TOOL_LIMITS.maxBytes));
      break;
    }
    kept.unshift(lines[i]!);
    bytes += size;
  }
  return { text: kept.join("\n"), truncated: true };
}

/** The end of `line` within `maxBytes`, cut at a character boundary. */
function lastBytes(line: string, maxBytes: number): string {
  const buffer = Buffer.from(line);
  let start = buffer.length - maxBytes;
  while (start < buffer.length && (buffer[start]! & 0xc0) === 0x80) start++;
  return buffer.subarray(start).toString();
}
