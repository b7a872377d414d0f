/**
 * Runs a mode plugin inside a test: collects what it writes to stdout and stderr, and lets the test
 * trigger the host's stop signal (what Ctrl+C does in the CLI).
 */
import { PassThrough, Writable } from "node:stream";
import { ModeContract, type Mode, type ModeInput, type ModeIO } from "../../../contracts/mode.js";
import type { Kernel } from "../../../kernel/index.js";

/** A stream that keeps every write as a separate chunk, so tests can check line framing. */
export class CollectingStream extends Writable {
  readonly writes: string[] = [];
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.writes.push(chunk.toString());
    callback();
  }
  get text(): string {
    return this.writes.join("");
  }
}

/** Process streams for a mode, plus the stop trigger. */
export interface TestIO extends ModeIO {
  stdout: CollectingStream;
  stderr: CollectingStream;
  stop(): void;
}

/** Fresh streams and an unresolved stop signal. */
export function testIO(): TestIO {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  return { stdin: new PassThrough(), stdout: new CollectingStream(), stderr: new CollectingStream(), stopped, stop };
}

/** Runs the mode named `name` through its stable handle, as the host does. */
export function runMode(kernel: Kernel, name: string, input: Partial<ModeInput>, io: ModeIO): Promise<number> {
  const handle = kernel
    .useAll(ModeContract)
    .list()
    .find((h) => h.peek()?.name === name);
  if (handle === undefined) throw new Error(`no mode "${name}" is running`);
  return handle.call("run", { messages: [], images: [], ...input }, io) as Promise<number>;
}

export type { Mode };
