/**
 * Guards one HTTP request of a provider stream: a first-byte timeout (no response headers), an idle
 * timeout (no body bytes for too long, at the start or mid-stream), and a cap on the length of one
 * stream line, so a misbehaving server ends the stream with an error that says what went wrong instead
 * of hanging or eating memory. It works as the `fetch` handed to a provider SDK, so the SDK's own
 * request and parsing code stays in charge of everything else. One guard per request attempt.
 */
import { linkAbort, type LinkedAbort } from "./abort.js";
import { LiteResponse } from "./node-fetch.js";

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
  private readonly iterables = new Set<{ error(failure: Error): void }>();

  constructor(
    callerSignal: AbortSignal | undefined,
    private readonly limits: RequestLimits,
    /** How the request is sent: the global fetch (read at call time) unless given, e.g. `nodeFetch`. */
    private readonly transport?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response | LiteResponse>,
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

  /**
   * A fetch for the SDK: the guard's transport (global fetch unless the guard was given another, such
   * as `nodeFetch`), with the first-byte timer, idle timer and line cap on the body.
   */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    this.arm(
      this.limits.firstByteTimeoutMs,
      (s) => `no response from the provider within ${s} (request sent, no headers received)`,
    );
    let response: Response | LiteResponse;
    try {
      response = await (this.transport ?? fetch)(input, init);
    } catch (error) {
      this.clearTimer();
      throw this.failure ?? error;
    }
    this.clearTimer();
    if (this.failure !== undefined) throw this.failure;
    if (response.body === null) return response as Response;
    this.arm(this.limits.idleTimeoutMs, (s) => `the provider sent response headers, then nothing for ${s}`);
    // Line limits apply to a streamed answer; an error body is read whole by the SDK and its text is
    // cut to 4 KB when it becomes the error message.
    const lines = new LineWatch(response.ok, this.limits.maxLineBytes);
    let chunks = 0;
    const onChunk = (chunk: Uint8Array): Uint8Array | undefined => {
      chunks++;
      this.arm(
        this.limits.idleTimeoutMs,
        (s) => `the response stream went silent for ${s} after ${chunks} chunk${chunks === 1 ? "" : "s"}`,
      );
      const passed = lines.take(chunk);
      if (passed === "overlong")
        this.cut(
          new StreamGuardError(
            `the provider sent a stream line longer than ${formatBytes(this.limits.maxLineBytes)}; the response was dropped`,
            false,
          ),
        );
      return passed === "overlong" ? undefined : passed;
    };
    if (response instanceof LiteResponse) {
      const source = response.body!;
      const guarded = this.guardedIterable(source, onChunk, lines);
      return new LiteResponse(
        guarded,
        response.status,
        response.statusText,
        response.headers,
        response.url,
        response.redirected,
      ) as unknown as Response;
    }
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start: (controller) => void this.bodies.add(controller),
        transform: (chunk, controller) => {
          const passed = onChunk(chunk);
          if (passed !== undefined) controller.enqueue(passed);
        },
        flush: (controller) => {
          const rest = lines.rest();
          if (rest !== undefined) controller.enqueue(rest);
          this.bodies.delete(controller);
          this.clearTimer();
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** A LiteResponse body with the guard's checks; `cut()` ends it with the guard's failure. */
  private guardedIterable(
    source: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
    onChunk: (chunk: Uint8Array) => Uint8Array | undefined,
    lines: LineWatch,
  ): AsyncIterable<Uint8Array> & { destroy: (error?: Error) => void } {
    const guard = this;
    const iterable = {
      destroy: (error?: Error) => source.destroy?.(error),
      async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
        const stop = { error: (failure: Error) => source.destroy?.(failure) };
        guard.iterables.add(stop);
        try {
          for await (const chunk of source) {
            if (guard.failure !== undefined) throw guard.failure;
            const passed = onChunk(chunk);
            if (guard.failure !== undefined) throw guard.failure;
            if (passed !== undefined) yield passed;
          }
          if (guard.failure !== undefined) throw guard.failure;
          const rest = lines.rest();
          if (rest !== undefined) yield rest;
        } catch (error) {
          throw guard.failure ?? error;
        } finally {
          guard.iterables.delete(stop);
          guard.clearTimer();
          source.destroy?.();
        }
      },
    };
    return iterable;
  }

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
    for (const body of this.iterables) body.error(failure);
    this.iterables.clear();
    this.link.controller.abort(failure);
  }
}

function formatSpan(ms: number): string {
  return ms >= 1_000 ? `${Number((ms / 1_000).toFixed(1))} s` : `${ms} ms`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Number((bytes / 1024 / 1024).toFixed(1))} MB` : `${bytes} bytes`;
}

/**
 * The line cap over a body's chunks. Bytes of a line still open are held back: SDK line decoders rescan
 * their buffer on every chunk they get, so a long line forwarded in 64 KB pieces costs them quadratic
 * time. Forwarded in big pieces (or as soon as a line break arrives) it costs them a few passes.
 */
class LineWatch {
  private lineBytes = 0;
  private held: Uint8Array[] = [];
  private heldBytes = 0;

  constructor(
    private readonly checkLines: boolean,
    private readonly maxLineBytes: number,
  ) {}

  /** The bytes to pass on now (possibly none), or "overlong" when a line passed the cap. */
  take(chunk: Uint8Array): Uint8Array | undefined | "overlong" {
    if (!this.checkLines) return chunk;
    // Linear: each byte is looked at once; only the length of the current line is kept.
    let longest = 0;
    let sawBreak = false;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === 0x0a || byte === 0x0d) {
        sawBreak = true;
        if (this.lineBytes > longest) longest = this.lineBytes;
        this.lineBytes = 0;
      } else {
        this.lineBytes++;
      }
    }
    if (this.lineBytes > longest) longest = this.lineBytes;
    if (longest > this.maxLineBytes) return "overlong";
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    return sawBreak || this.heldBytes >= HOLD_LONG_LINE_BYTES ? this.rest() : undefined;
  }

  /** Whatever is still held back, in one piece (at the end of the body). */
  rest(): Uint8Array | undefined {
    if (this.heldBytes === 0) return undefined;
    const out = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    return out;
  }
}
