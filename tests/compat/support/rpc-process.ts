/**
 * A spawned `pi --mode rpc` of the built CLI for the compatibility tests: JSON lines written to stdin,
 * records read from stdout split on LF, and waits for the record a test needs (a response, an
 * `extension_ui_request`, the end of a run). Every wait has a bound, so a package that hangs fails the
 * test with the records seen so far instead of stalling the suite.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { PI_BIN } from "../../e2e/run-pi.js";

type Rec = Record<string, any>;

/** How long one wait may take before the test fails with what arrived (not a timing assertion). */
const WAIT_LIMIT_MS = 60_000;

/** One RPC process. */
export class RpcProcess {
  readonly records: Rec[] = [];
  stderr = "";
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiters: Array<{ match: (r: Rec) => boolean; resolve: (r: Rec) => void }> = [];
  private nextId = 0;

  constructor(args: string[], options: { cwd: string; env: Record<string, string> }) {
    this.child = spawn(process.execPath, [PI_BIN, "--mode", "rpc", ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (let nl = this.buffer.indexOf("\n"); nl !== -1; nl = this.buffer.indexOf("\n")) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim() === "") continue;
        const record = JSON.parse(line) as Rec;
        this.records.push(record);
        const waiting = this.waiters;
        this.waiters = [];
        for (const w of waiting) w.match(record) ? w.resolve(record) : this.waiters.push(w);
      }
    });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
  }

  /** Sends a command; resolves with its response. */
  async command(command: Rec): Promise<Rec> {
    const id = `c${++this.nextId}`;
    this.child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    return this.next((r) => r.type === "response" && r.id === id, `the response to ${command.type}`);
  }

  /** Writes a raw record (an `extension_ui_response`). */
  send(record: Rec): void {
    this.child.stdin.write(`${JSON.stringify(record)}\n`);
  }

  /** Sends a prompt; resolves once it was accepted (what it does, the test waits for). */
  async prompt(message: string): Promise<void> {
    const response = await this.command({ type: "prompt", message });
    if (response.success !== true) throw new Error(`prompt ${message} failed: ${JSON.stringify(response)}`);
  }

  /** The first matching record that arrives after the record count was `seen`. */
  after(seen: number, match: (r: Rec) => boolean, what?: string): Promise<Rec> {
    return this.next((r) => this.records.indexOf(r) >= seen && match(r), what);
  }

  /** The first record (seen or coming) that matches. */
  next(match: (r: Rec) => boolean, what = "a record"): Promise<Rec> {
    const found = this.records.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(
          new Error(
            `no ${what} within ${WAIT_LIMIT_MS / 1000} s; records: ${JSON.stringify(this.records).slice(-3000)}\nstderr: ${this.stderr}`,
          ),
        );
      }, WAIT_LIMIT_MS);
      const done = (record: Rec): void => {
        clearTimeout(timer);
        resolve(record);
      };
      this.waiters.push({ match, resolve: done });
    });
  }

  /** Closes stdin (the client leaves) and waits for the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}
