/**
 * Guards one HTTP request of a provider stream: a first-byte timeout (no response headers), an idle
 * timeout (no body bytes for too long, at the start or mid-stream), and a cap on the length of one
 * stream line, so a misbehaving server ends the stream with an error that says what went wrong instead
 * of hanging or eating memory. It works as the `fetch` handed to a provider SDK, so the SDK's own
 * request and parsing code stays in charge of everything else. One guard per request attempt.
 */
import { linkAbort, type LinkedAbort } from "./abort.js";

/** pi's `httpIdleTimeoutMs` default: how long a response may stay silent (headers or body). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** The longest single stream line accepted (SSE `data:` lines carry whole events, images included). */
export const MAX_STREAM_LINE_BYTES = 16 * 1024 * 1024;

/** How much of an unfinished line is gathered before it is passed on in one piece. */
const HOLD_LONG_LINE_BYTES = 4 * 1024 * 1024;

/** The limits one guard enforces; 0 (or a non-finite number) turns a timeout off. */
export interface RequestLimits {
  /** From sending the request to the response headers. */
  firstByteTimeoutMs: number;
  /** Between two body chunks, and from the headers to the first body chunk. */
  idleTimeoutMs: number;
  /** The longest line (bytes between two line breaks) the body may contain. */
  maxLineBytes: number;
}

/** The limits for a stream's options: defaults where unset. */
export function requestLimits(options: { firstByteTimeoutMs?: number; idleTimeoutMs?: number } = {}): RequestLimits {
  return {
    firstByteTimeoutMs: options.firstByteTimeoutMs ?? options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    maxLineBytes: MAX_STREAM_LINE_BYTES,
  };
}

/** The request was cut by the guard; `message` says what stalled or overflowed. */
export class StreamGuardError extends Error {
  override readonly name = "StreamGuardError";
  /** A stall may pass with another try; an overlong line will not. */
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** Guards one request attempt. Pass `signal` and `fetch` to the SDK; call `dispose()` when the attempt ends. */
export class RequestGuard {
  /** Why the guard cut the request, once it has. */
  failure: StreamGuardError | undefined;
  private readonly link: LinkedAbort;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly bodies = new Set<TransformStreamDefaultController<Uint8Array>>();

  constructor(
    callerSignal: AbortSignal | undefined,
    private readonly limits: RequestLimits,
  ) {
    this.link = linkAbort(callerSignal);
  }

  /** The signal the SDK should send the request with: the caller's abort, or the guard's cut. */
  get signal(): AbortSignal {
    return this.link.controller.signal;
  }

  /** Throws the guard's failure, if it cut the request (call after the SDK returned or threw). */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Stops the timers and unlinks from the caller's signal. Idempotent. */
  dispose(): void {
    this.clearTimer();
    this.link.dispose();
  }

  /** Ends the request: `dispose()`, and aborts the HTTP request if it is still open (frees its socket). */
  close(): void {
    this.dispose();
    if (!this.link.controller.signal.aborted) this.link.controller.abort();
  }

  /** A fetch for the SDK: global fetch, with the first-byte timer, idle timer and line cap on the body. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    this.arm(
      this.limits.firstByteTimeoutMs,
      (s) => `no response from the provider within ${s} (request sent, no headers received)`,
    );
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      this.clearTimer();
      throw this.failure ?? error;
    }
    this.clearTimer();
    if (this.failure !== undefined) throw this.failure;
    if (response.body === null) return response;
    this.arm(this.limits.idleTimeoutMs, (s) => `the provider sent response headers, then nothing for ${s}`);
    // Line limits apply to a streamed answer; an error body is read whole by the SDK and its text is
    // cut to 4 KB when it becomes the error message.
    const checkLines = response.ok;
    let lineBytes = 0;
    let chunks = 0;
    // Bytes of a line still open, held back: SDK line decoders rescan their buffer on every chunk they
    // get, so a long line forwarded in 64 KB pieces costs them quadratic time. Forwarded in big pieces
    // (or as soon as a line break arrives) it costs them a few passes.
    let held: Uint8Array[] = [];
    let heldBytes = 0;
    const release = (controller: TransformStreamDefaultController<Uint8Array>): void => {
      if (heldBytes === 0) return;
      controller.enqueue(held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes));
      held = [];
      heldBytes = 0;
    };
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start: (controller) => void this.bodies.add(controller),
        transform: (chunk, controller) => {
          chunks++;
          this.arm(
            this.limits.idleTimeoutMs,
            (s) => `the response stream went silent for ${s} after ${chunks} chunk${chunks === 1 ? "" : "s"}`,
          );
          if (!checkLines) {
            controller.enqueue(chunk);
            return;
          }
          // Linear: each byte is looked at once; only the length of the current line is kept.
          let longest = 0;
          let sawBreak = false;
          for (let i = 0; i < chunk.length; i++) {
            const byte = chunk[i]!;
            if (byte === 0x0a || byte === 0x0d) {
              sawBreak = true;
              if (lineBytes > longest) longest = lineBytes;
              lineBytes = 0;
            } else {
              lineBytes++;
            }
          }
          if (lineBytes > longest) longest = lineBytes;
          if (longest > this.limits.maxLineBytes) {
            this.cut(
              new StreamGuardError(
                `the provider sent a stream line longer than ${formatBytes(this.limits.maxLineBytes)}; the response was dropped`,
                false,
              ),
            );
            return;
          }
          held.push(chunk);
          heldBytes += chunk.length;
          if (sawBreak || heldBytes >= HOLD_LONG_LINE_BYTES) release(controller);
        },
        flush: (controller) => {
          release(controller);
          this.bodies.delete(controller);
          this.clearTimer();
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  private arm(ms: number, describe: (span: string) => string): void {
    this.clearTimer();
    if (!(ms > 0) || !Number.isFinite(ms)) return;
    this.timer = setTimeout(
      () => this.cut(new StreamGuardError(`Stream stalled: ${describe(formatSpan(ms))}`, true)),
      ms,
    );
    // A guard must never keep the process alive on its own.
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Records the failure, errors any open body with it, and aborts the request. */
  private cut(failure: StreamGuardError): void {
    if (this.failure !== undefined) return;
    this.failure = failure;
    this.clearTimer();
    for (const body of this.bodies) {
      try {
        body.error(failure);
      } catch {
        // already closed
      }
    }
    this.bodies.clear();
    this.link.controller.abort(failure);
  }
}

function formatSpan(ms: number): string {
  return ms >= 1_000 ? `${Number((ms / 1_000).toFixed(1))} s` : `${ms} ms`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Number((bytes / 1024 / 1024).toFixed(1))} MB` : `${bytes} bytes`;
}
