/**
 * Strict JSONL framing for the RPC protocol: records end at LF and nowhere else. Node's readline also
 * splits on U+2028 and U+2029, which are legal inside JSON strings, so it would cut a message in two;
 * this reader splits on "\n" only, strips one trailing "\r" (CRLF clients), and decodes UTF-8 across
 * chunk boundaries.
 */
import { StringDecoder } from "node:string_decoder";

/** One record as a line: JSON.stringify escapes "\n" inside strings, so the only LF is the terminator. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** What the reader reports besides lines. */
export interface LineReaderEvents {
  onLine: (line: string) => void;
  /** The stream ended (or failed); called once, after the last line. */
  onEnd: (error?: Error) => void;
}

/** Reads LF-delimited lines from `stream` until it ends; returns the function that stops reading. */
export function readLines(stream: NodeJS.ReadableStream, events: LineReaderEvents): () => void {
  const decoder = new StringDecoder("utf8");
  let buffer = "";
  let ended = false;
  const emit = (line: string) => events.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  const onData = (chunk: Buffer | string) => {
    buffer += typeof chunk === "string" ? chunk : decoder.write(chunk);
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      emit(line);
      newline = buffer.indexOf("\n");
    }
  };
  const finish = (error?: Error) => {
    if (ended) return;
    ended = true;
    buffer += decoder.end();
    if (buffer.length > 0) emit(buffer);
    buffer = "";
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
    detach();
  };
}
