/**
 * MCP over a child process's stdin/stdout, on a process the plugin's generation owns. The SDK's own
 * `StdioClientTransport` spawns its child behind the kernel's back; this one takes the child from
 * `ownedSpawn(ctx, …)`, so retiring the generation ends every server (its whole process group), and it keeps
 * what a crash report needs: the exit code or signal and the last lines the server wrote to stderr.
 * Framing (newline-delimited JSON-RPC) is the SDK's own `ReadBuffer` / `serializeMessage`.
 */
import type { ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The SDK's stdio framing helpers, passed in because the SDK is imported lazily. */
export interface StdioFraming {
  ReadBuffer: new () => { append(chunk: Buffer): void; readMessage(): JSONRPCMessage | null; clear(): void };
  serializeMessage(message: JSONRPCMessage): string;
}

/** How a server process ended, for messages like `exited with code 1` or `was killed by SIGKILL`. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines of the server's stderr, newest last. */
  stderrTail: string;
}

const STDERR_TAIL_BYTES = 2_000;
const CLOSE_GRACE_MS = 1_000;

/** Stdio transport over an owned child process. `launch` spawns it (through `ownedSpawn(ctx, …)`). */
export class OwnedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called once when the process ends (whatever the reason), before `onclose`. */
  onexit?: (exit: ExitInfo) => void;

  private child: ChildProcess | undefined;
  private readonly buffer: InstanceType<StdioFraming["ReadBuffer"]>;
  private stderr = "";
  private exited: Promise<void> | undefined;

  constructor(
    private readonly launch: () => ChildProcess,
    private readonly framing: StdioFraming,
  ) {
    this.buffer = new framing.ReadBuffer();
  }

  /** The server's process id (for reports and tests), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last stderr lines, for start-failure messages. */
  get stderrTail(): string {
    return this.stderr.trim();
  }

  start(): Promise<void> {
    if (this.child !== undefined) throw new Error("the stdio transport is already started");
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = this.launch();
      } catch (error) {
        reject(error);
        return;
      }
      this.child = child;
      this.exited = new Promise((done) => {
        child.once("exit", (code, signal) => {
          this.onexit?.({ code, signal, stderrTail: this.stderrTail });
          this.onclose?.();
          done();
        });
        // A command that cannot be spawned (ENOENT, EACCES) emits "error" and never "exit".
        child.once("error", () => {
          if (child.pid === undefined) done();
        });
      });
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => resolve());
      child.stdout?.on("data", (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.drain();
      });
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stderr?.on("data", (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
      });
    });
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || !stdin.writable)
      return Promise.reject(new Error("the server process is not running"));
    return new Promise((resolve, reject) => {
      stdin.write(this.framing.serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the process: closes its stdin, then SIGTERM, then SIGKILL; resolves when it has exited. */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined || this.exited === undefined) return;
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      signalGroup(child, "SIGTERM");
      const killer = setTimeout(() => signalGroup(child, "SIGKILL"), CLOSE_GRACE_MS);
      await this.exited;
      clearTimeout(killer);
    }
    this.buffer.clear();
  }
}

/** Signals the child's process group (it is spawned detached, so wrappers like npx take their children along). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** `was killed by SIGKILL`, or `exited with code 1` plus the last stderr lines, which usually say why. */
export function describeExit(exit: ExitInfo): string {
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  const how = `exited with code ${exit.code ?? "unknown"}`;
  const tail = exit.stderrTail.split("\n").slice(-3).join(" | ");
  return tail === "" ? how : `${how} (stderr: ${tail})`;
}
