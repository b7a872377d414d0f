/**
 * pi's output limits for grep: match lines are cut at 500 characters, and the whole output at 50 KB
 * (the match limit already caps the number of lines).
 */

/** pi's cap on one grep output line. */
export const GREP_MAX_LINE_LENGTH = 500;

/** How the output was cut (pi's truncation details without the duplicated text). */
export interface HeadTruncation {
  truncated: boolean;
  truncatedBy: "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  maxBytes: number;
}

/** Keeps the first whole lines of `text` that fit in `maxBytes`. */
export function truncateHeadBytes(text: string, maxBytes: number): { text: string; truncation: HeadTruncation } {
  const totalBytes = Buffer.byteLength(text);
  const lines = text.split("\n");
  if (totalBytes <= maxBytes) {
    return { text, truncation: { truncated: false, truncatedBy: null, totalLines: lines.length, totalBytes, outputLines: lines.length, outputBytes: totalBytes, maxBytes } };
  }
  let bytes = 0;
  let count = 0;
  for (const line of lines) {
    const lineBytes = Buffer.byteLength(line) + (count > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) break;
    bytes += lineBytes;
    count++;
  }
  return {
    text: lines.slice(0, count).join("\n"),
    truncation: { truncated: true, truncatedBy: "bytes", totalLines: lines.length, totalBytes, outputLines: count, outputBytes: bytes, maxBytes },
  };
}

/** Cuts one line to `maxChars`, marking the cut as pi does. */
export function truncateLine(line: string, maxChars = GREP_MAX_LINE_LENGTH): { text: string; cut: boolean } {
  if (line.length <= maxChars) return { text: line, cut: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, cut: true };
}

/** Bytes as pi prints them: 512B, 50.0KB, 1.2MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
