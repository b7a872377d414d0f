/**
 * How the remote tools run a program on the other machine, whatever carries it (an SSH channel, a
 * `docker exec`): argv in, stdout and stderr streamed back, the exit status out. Every tool is built on
 * this one operation, so adding a transport means writing one runner.
 */

/** What one run sends and receives. */
export interface RunIo {
  /** Bytes written to the program's stdin, which is then closed (closed at once when absent). */
  stdin?: Buffer | string;
  /** Closing the run early (the caller stops reading); the remote program then sees its pipe close. */
  signal?: AbortSignal;
  /** stdout chunks in order; a returned promise pauses reading until it settles (backpressure). */
  onStdout?: (chunk: Buffer) => void | Promise<void>;
  onStderr?: (chunk: Buffer) => void;
}

/** How a run ended. */
export interface RunEnd {
  code: number | null;
  signal: string | null;
}

/** A connection to one remote machine or container. */
export interface RemoteRunner {
  /** A short name for messages and lock keys, never holding a credential. */
  readonly label: string;
  /** False once the connection was lost or closed (a transport without a connection leaves it out). */
  readonly usable?: boolean;
  /** Runs `argv` (program first) on the remote side. */
  run(argv: string[], io?: RunIo): Promise<RunEnd>;
  /** Ends the connection; runs still going are cut off. */
  close(): Promise<void>;
}

/** A finished run with its whole output collected. */
export interface Captured extends RunEnd {
  stdout: Buffer;
  stderr: string;
}

/** Runs `argv` and collects stdout (at most `maxBytes`, then the run is cut) and stderr. */
export async function capture(
  runner: RemoteRunner,
  argv: string[],
  options: { stdin?: Buffer | string; signal?: AbortSignal; maxBytes?: number } = {},
): Promise<Captured> {
  const chunks: Buffer[] = [];
  const errors: Buffer[] = [];
  let size = 0;
  const cut = new AbortController();
  const signal = options.signal === undefined ? cut.signal : AbortSignal.any([options.signal, cut.signal]);
  const end = await runner.run(argv, {
    stdin: options.stdin,
    signal,
    onStdout: (chunk) => {
      size += chunk.length;
      if (options.maxBytes !== undefined && size > options.maxBytes) cut.abort();
      else chunks.push(chunk);
    },
    onStderr: (chunk) => errors.push(chunk),
  });
  return { ...end, stdout: Buffer.concat(chunks), stderr: Buffer.concat(errors).toString("utf-8") };
}

/** `argv` as one POSIX shell command line (each word single-quoted), for transports that take a string. */
export function shellCommandLine(argv: string[]): string {
  return argv
    .map((word) => (/^[A-Za-z0-9_./=:@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(" ");
}
