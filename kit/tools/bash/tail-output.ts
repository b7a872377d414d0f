/**
 * Command output with bounded memory: bash output can be gigabytes, but the model sees only the last
 * 2,000 lines or 50 KB (pi's rule for bash: keep the TAIL, where errors and results are). Everything is
 * counted; only a rolling window of the end is kept in memory; once the output outgrows the limits the
 * raw bytes go to a temp file, so the full log stays available at the path the result reports.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import type { TruncationResult } from "../../../contracts/tool-output.js";
import { processSpillFiles } from "./spill-files.js";

/** Output limits: lines and bytes; whichever is hit first wins. */
export interface OutputLimits {
  maxLines: number;
  maxBytes: number;
}

/** How the shown text was cut (pi's TruncationResult without the duplicated text). */
export type TailTruncation = Omit<TruncationResult, "content">;

/** The tail as it stands: the text to show and how it relates to the whole output. */
export interface TailSnapshot {
  text: string;
  truncation: TailTruncation;
  /** The temp file holding the full output, once the output outgrew the limits. */
  fullOutputPath: string | undefined;
  /** Bytes of the last line of the whole output. */
  lastLineBytes: number;
}

const NEWLINE = 0x0a;

/** Accumulates a command's raw output; `snapshot()` at any time, `close()` when done. */
export class TailOutput {
  private readonly decoder = new TextDecoder();
  /** The decoded end of the output; between 2× and 4× maxBytes once trimming starts. */
  private window = "";
  private windowBytes = 0;
  private windowStartsAtLine = true;
  private totalBytes = 0;
  private newlines = 0;
  private endsWithNewline = false;
  private currentLineBytes = 0;
  private previousLineBytes = 0;
  /** Raw chunks held until the output outgrows the limits (never more than maxBytes). */
  private pending: Buffer[] = [];
  private spill: WriteStream | undefined;
  private spillPath: string | undefined;
  private spillError: Error | undefined;
  private finished = false;

  constructor(
    private readonly limits: OutputLimits,
    private readonly newSpillPath: () => string = () => processSpillFiles().newPath(),
  ) {}

  /**
   * Adds a chunk of raw output (any split of UTF-8 sequences is fine). Returns false when the temp file
   * is backed up: the producer should pause until `drained()` resolves, so memory stays bounded.
   */
  append(chunk: Buffer): boolean {
    if (this.finished) return true;
    this.totalBytes += chunk.length;
    this.addText(this.decoder.decode(chunk, { stream: true }));
    if (this.spill === undefined && this.outgrewLimits()) this.openSpill();
    if (this.spill === undefined) {
      this.pending.push(chunk);
      return true;
    }
    return this.spill.write(chunk) || this.spillError !== undefined;
  }

  /** Resolves once the temp file has caught up (at once when nothing is waiting). */
  drained(): Promise<void> {
    const spill = this.spill;
    if (spill === undefined || !spill.writableNeedDrain || this.spillError !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        spill.off("drain", done);
        spill.off("close", done);
        resolve();
      };
      spill.once("drain", done);
      spill.once("close", done);
    });
  }

  /** Flushes the decoder; no more output will come. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.addText(this.decoder.decode());
  }

  /** Ends the temp file (if any) and waits until it is fully written. */
  async close(): Promise<void> {
    this.finish();
    const spill = this.spill;
    if (spill === undefined) return;
    await new Promise<void>((resolve) => {
      if (spill.closed || spill.destroyed) return resolve();
      spill.once("close", () => resolve());
      spill.end();
    });
  }

  /** Why the full output could not be saved, if it could not. */
  get saveError(): Error | undefined {
    return this.spillError;
  }

  /** The last lines that fit the limits, and how they relate to the whole output. */
  snapshot(): TailSnapshot {
    const { maxLines, maxBytes } = this.limits;
    const totalLines = this.totalBytes === 0 ? 0 : this.newlines + (this.endsWithNewline ? 0 : 1);
    let text = this.window;
    if (!this.windowStartsAtLine) {
      const firstBreak = text.indexOf("\n");
      if (firstBreak !== -1) text = text.slice(firstBreak + 1);
    }
    if (text.endsWith("\n")) text = text.slice(0, -1);
    const lines = totalLines === 0 ? [] : text.split("\n");
    const kept: string[] = [];
    let keptBytes = 0;
    let truncatedBy: "lines" | "bytes" | null = null;
    let lastLinePartial = false;
    for (let i = lines.length - 1; i >= 0; i--) {
      if (kept.length === maxLines) {
        truncatedBy = "lines";
        break;
      }
      const line = lines[i]!;
      const lineBytes = Buffer.byteLength(line) + (kept.length > 0 ? 1 : 0);
      if (keptBytes + lineBytes > maxBytes) {
        truncatedBy = "bytes";
        if (kept.length === 0) {
          const end = tailOfLine(line, maxBytes);
          kept.push(end);
          keptBytes = Buffer.byteLength(end);
          lastLinePartial = true;
        }
        break;
      }
      kept.unshift(line);
      keptBytes += lineBytes;
    }
    const truncated = kept.length < totalLines || lastLinePartial;
    // The window may hold fewer lines than the output when an over-long line was cut at its start.
    if (truncated && truncatedBy === null) truncatedBy = "bytes";
    return {
      text: kept.join("\n"),
      truncation: {
        truncated,
        truncatedBy,
        totalLines,
        totalBytes: this.totalBytes,
        outputLines: kept.length,
        outputBytes: keptBytes,
        lastLinePartial,
        firstLineExceedsLimit: false,
        maxLines,
        maxBytes,
      },
      fullOutputPath: this.spillError === undefined ? this.spillPath : undefined,
      lastLineBytes: this.endsWithNewline ? this.previousLineBytes : this.currentLineBytes,
    };
  }

  private outgrewLimits(): boolean {
    const lines = this.newlines + (this.endsWithNewline ? 0 : 1);
    return this.totalBytes > this.limits.maxBytes || lines > this.limits.maxLines;
  }

  private addText(text: string): void {
    if (text.length === 0) return;
    const bytes = Buffer.byteLength(text);
    this.window += text;
    this.windowBytes += bytes;
    if (this.windowBytes > 4 * this.limits.maxBytes) this.trimWindow();
    const lastBreak = text.lastIndexOf("\n");
    if (lastBreak === -1) {
      this.currentLineBytes += bytes;
    } else {
      let count = 0;
      let previousBreak = -1;
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
        count++;
        if (i !== lastBreak) previousBreak = i;
      }
      this.previousLineBytes =
        count === 1
          ? this.currentLineBytes + Buffer.byteLength(text.slice(0, lastBreak))
          : Buffer.byteLength(text.slice(previousBreak + 1, lastBreak));
      this.newlines += count;
      this.currentLineBytes = Buffer.byteLength(text.slice(lastBreak + 1));
    }
    this.endsWithNewline = text.endsWith("\n");
  }

  /** Keeps the last 2× maxBytes of the window, cut at a character boundary. */
  private trimWindow(): void {
    const buffer = Buffer.from(this.window);
    let start = buffer.length - 2 * this.limits.maxBytes;
    while (start < buffer.length && (buffer[start]! & 0xc0) === 0x80) start++;
    this.windowStartsAtLine = buffer[start - 1] === NEWLINE;
    this.window = buffer.subarray(start).toString();
    this.windowBytes = buffer.length - start;
  }

  private openSpill(): void {
    this.spillPath = this.newSpillPath();
    const spill = createWriteStream(this.spillPath, { flags: "wx", mode: 0o600 });
    spill.on("error", (error) => {
      this.spillError = error;
    });
    for (const chunk of this.pending) spill.write(chunk);
    this.pending = [];
    this.spill = spill;
  }
}

/** The end of `line` that fits in `maxBytes`, starting at a character boundary. */
function tailOfLine(line: string, maxBytes: number): string {
  const buffer = Buffer.from(line);
  if (buffer.length <= maxBytes) return line;
  let start = buffer.length - maxBytes;
  while (start < buffer.length && (buffer[start]! & 0xc0) === 0x80) start++;
  return buffer.subarray(start).toString();
}
