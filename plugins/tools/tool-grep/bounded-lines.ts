/**
 * Splits a child's stdout into lines with bounded memory. readline keeps a line in memory however long
 * it grows, so one enormous rg event (a match in a minified file, or a misbehaving tool printing
 * without newlines) could take all memory. Lines longer than `maxLineBytes` are dropped as they stream
 * (counted in `droppedLines`), and after `maxTotalBytes` of output `onLimit` is called once so the
 * caller can stop the child.
 */

/** Line splitting with a per-line and a total byte bound. */
export class BoundedLineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dropping = false;
  private totalBytes = 0;
  private limitHit = false;
  /** Lines skipped because they were longer than the per-line bound. */
  droppedLines = 0;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineBytes: number,
    private readonly maxTotalBytes: number,
    private readonly onLimit: () => void,
  ) {}

  /** Feeds a chunk of output. */
  push(chunk: Buffer): void {
    if (this.limitHit) return;
    this.totalBytes += chunk.length;
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, end));
      this.flushLine();
      start = end + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
    if (this.totalBytes > this.maxTotalBytes) {
      this.limitHit = true;
      this.onLimit();
    }
  }

  /** The output ended: a last line without a newline is still a line. */
  end(): void {
    if (!this.limitHit && (this.pendingBytes > 0 || this.dropping)) this.flushLine();
  }

  private take(part: Buffer): void {
    if (this.dropping || part.length === 0) return;
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.dropping = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private flushLine(): void {
    if (this.dropping) {
      this.droppedLines++;
      this.dropping = false;
      return;
    }
    const line = Buffer.concat(this.pending, this.pendingBytes).toString("utf8");
    this.pending = [];
    this.pendingBytes = 0;
    this.onLine(line);
  }
}
