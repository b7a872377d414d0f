/**
 * Runs the RPC mode in-process on the real agent session stack (see the agent-session harness) with
 * PassThrough streams as stdin/stdout, and gives tests an RPC client: send commands, await the
 * response with a given id, await the next record matching a predicate. Nothing polls or sleeps: every
 * wait resolves when the record it waits for is written.
 */
import { PassThrough } from "node:stream";
import { ModeContract, type Mode, type ModeInput } from "../../../contracts/mode.js";
import type { Handle, PluginDefinition } from "../../../kernel/index.js";
import modeRpc from "../../../plugins/modes/mode-rpc/index.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";

/** One record the mode wrote (a response, an event, or an extension UI request). */
export type RpcRecord = Record<string, any>;

interface Waiter {
  from: number;
  match: (record: RpcRecord) => boolean;
  resolve: (record: RpcRecord) => void;
}

/** The client side of a running RPC mode. */
export class RpcClient {
  /** Every record written so far, in order. */
  readonly records: RpcRecord[] = [];
  /** Every stdout line, raw, for framing checks. */
  readonly lines: string[] = [];
  private waiters: Waiter[] = [];
  private nextId = 0;
  private buffer = "";

  constructor(
    readonly stdin: PassThrough,
    stdout: PassThrough,
  ) {
    stdout.setEncoding("utf8");
    stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      let newline = this.buffer.indexOf("\n");
      while (newline !== -1) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        this.lines.push(line);
        this.add(JSON.parse(line) as RpcRecord);
        newline = this.buffer.indexOf("\n");
      }
    });
  }

  /** Writes one raw line (a terminating "\n" is added). */
  writeLine(line: string): void {
    this.stdin.write(`${line}\n`);
  }

  /** Sends a command as one JSON line. */
  send(command: RpcRecord): void {
    this.writeLine(JSON.stringify(command));
  }

  /** Sends a command with a fresh id and resolves with its response. */
  request(command: RpcRecord): Promise<RpcRecord> {
    const id = `req-${++this.nextId}`;
    const response = this.next((r) => r.type === "response" && r.id === id);
    this.send({ ...command, id });
    return response;
  }

  /** The first record matching `match` at index `from` or later, now or when it is written. */
  next(match: (record: RpcRecord) => boolean, from = 0): Promise<RpcRecord> {
    const found = this.records.slice(from).find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ from, match, resolve }));
  }

  /** The first event of `type` at index `from` or later. */
  event(type: string, from = 0): Promise<RpcRecord> {
    return this.next((r) => r.type === type, from);
  }

  /** How many records were written so far: an index to wait from. */
  get count(): number {
    return this.records.length;
  }

  private add(record: RpcRecord): void {
    const index = this.records.push(record) - 1;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (index >= waiter.from && waiter.match(record)) waiter.resolve(record);
      else this.waiters.push(waiter);
    }
  }
}

/** A booted stack with the RPC mode running on PassThrough streams. */
export interface RpcHarness extends SessionHarness {
  client: RpcClient;
  mode: Handle<Mode>;
  /** The run's exit code, once stdin ends or `stop()` is called. */
  exit: Promise<number>;
  stderr: () => string;
  /** Ends stdin, as a client closing the pipe. */
  endInput(): void;
  /** Resolves `io.stopped`, as the host does on SIGINT/SIGTERM. */
  stop(): void;
}

/** Boots the agent-session stack plus the RPC mode (and `extra` plugins) and starts `run()`. */
export async function startRpc(
  options: Parameters<typeof bootSession>[0] & { input?: Partial<ModeInput> } = {},
): Promise<RpcHarness> {
  const extra: PluginDefinition<any, any>[] = [modeRpc, ...(options.extra ?? [])];
  const harness = await bootSession({ ...options, extra });
  const mode = harness.kernel
    .useAll(ModeContract)
    .list()
    .find((h) => h.peek()?.name === "rpc");
  if (mode === undefined) throw new Error("the rpc mode is not provided");
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errors = "";
  stderr.setEncoding("utf8");
  stderr.on("data", (chunk: string) => (errors += chunk));
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const client = new RpcClient(stdin, stdout);
  const exit = mode.call("run", { messages: [], images: [], ...options.input }, { stdin, stdout, stderr, stopped });
  return { ...harness, client, mode, exit, stderr: () => errors, endInput: () => stdin.end(), stop };
}

/** Waits until the mode has opened the session at start-up (its model_change event is out). */
export async function started(h: RpcHarness): Promise<void> {
  await h.client.event("model_change");
}
