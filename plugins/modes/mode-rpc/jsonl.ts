/**
 * Strict JSONL framing for the RPC protocol: records end at LF and nowhere else. Node's readline also
 * splits on U+2028 and U+2029, which are legal inside JSON strings, so it would cut a message in two;
 * this reader splits on "\n" only, strips one trailing "\r" (CRLF clients), and decodes UTF-8 across
 * chunk boundaries. A partial line is kept as a list of pieces joined once at its LF, so a long line
 * costs linear time; a line longer than the cap is dropped (reported once at its LF) and reading goes on.
 */
import { StringDecoder } from "node:string_decoder";

/** The longest line the reader keeps, in UTF-16 code units (64 MiB): far past any real command, short of exhausting memory. */
export const MAX_LINE_LENGTH = 64 * 1024 * 1024;

/** One record as a line: JSON.stringify escapes "\n" inside strings, so the only LF is the terminator. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** What the reader reports besides lines. */
export interface LineReaderEvents {
  onLine: (line: string) => void;
  /** A line longer than the cap was dropped; `length` is how long it was (at least the cap). */
  onOverlong?: (length: number) => void;
  /** The stream ended (or failed); called once, after the last line. */
  onEnd: (error?: Error) => void;
}

/** Tuning for tests; the default cap is MAX_LINE_LENGTH. */
export interface LineReaderOptions {
  maxLineLength?: number;
}

/**
 * Reads LF-delimited lines from `stream` until it ends; returns the function that stops reading, which
 * also pauses the stream so an open stdin no longer keeps the process alive.
 */
export function readLines(
  stream: NodeJS.ReadableStream,
  events: LineReaderEvents,
  options: LineReaderOptions = {},
): () => void {
  const maxLineLength = options.maxLineLength ?? MAX_LINE_LENGTH;
  const decoder = new StringDecoder("utf8");
  let pieces: string[] = [];
  let pendingLength = 0;
  let overlong = false;
  let ended = false;

  const emit = (line: string) => events.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  const finishLine = (tail: string) => {
    if (overlong) {
      const length = pendingLength + tail.length;
      overlong = false;
      pendingLength = 0;
      events.onOverlong?.(length);
      return;
    }
    pieces.push(tail);
    const line = pieces.length === 1 ? tail : pieces.join("");
    pieces = [];
    pendingLength = 0;
    if (line.length > maxLineLength) events.onOverlong?.(line.length);
    else emit(line);
  };
  const keepPartial = (text: string) => {
    if (text.length === 0) return;
    pendingLength += text.length;
    if (overlong) return;
    if (pendingLength > maxLineLength) {
      overlong = true;
      pieces = [];
      return;
    }
    pieces.push(text);
  };
  const onData = (chunk: Buffer | string) => {
    const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      finishLine(text.slice(start, newline));
      if (ended) return;
      start = newline + 1;
    }
    keepPartial(start === 0 ? text : text.slice(start));
  };
  const finish = (error?: Error) => {
    if (ended) return;
    keepPartial(decoder.end());
    if (pendingLength > 0) finishLine("");
    ended = true;
    pieces = [];
    detach();
    events.onEnd(error);
  };
  const onEnd = () => finish();
  const onError = (error: Error) => finish(error);
  const detach = () => {
    stream.off("data", onData);
    stream.off("end", onEnd);
    stream.off("close", onEnd);
    stream.off("error", onError);
  };
  stream.on("data", onData);
  stream.on("end", onEnd);
  stream.on("close", onEnd);
  stream.on("error", onError);
  return () => {
    ended = true;
    pieces = [];
    detach();
    stream.pause();
  };
}
