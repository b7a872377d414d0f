/**
 * pi's output-limit helpers (`truncateHead`, `truncateTail`, `truncateLine`, `formatSize` and the
 * default limits), which pi's docs tell extension tools to use. Same results as pi's: whole lines only,
 * except when the one line kept by a tail cut is itself too long.
 */
import { TOOL_LIMITS } from "pi-host";

/** pi's `TruncationOptions`. */
export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
}

/** pi's `TruncationResult`: the kept text and what was cut. */
export interface TruncationResult {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  lastLinePartial: boolean;
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

export const DEFAULT_MAX_LINES = TOOL_LIMITS.maxLines;
export const DEFAULT_MAX_BYTES = TOOL_LIMITS.maxBytes;

const bytesOf = (text: string): number => Buffer.byteLength(text, "utf8");

/** "512B", "1.5KB", "3.0MB", as pi prints sizes. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** Keeps the first lines that fit both limits (for file reads and search results). */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const lines = content.split("\n");
  const base = { totalLines: lines.length, totalBytes: bytesOf(content), maxLines, maxBytes, lastLinePartial: false };
  if (lines.length <= maxLines && base.totalBytes <= maxBytes) {
    return { ...base, content, truncated: false, truncatedBy: null, outputLines: lines.length, outputBytes: base.totalBytes, firstLineExceedsLimit: false };
  }
  if (bytesOf(lines[0]!) > maxBytes) {
    return { ...base, content: "", truncated: true, truncatedBy: "bytes", outputLines: 0, outputBytes: 0, firstLineExceedsLimit: true };
  }
  const kept: string[] = [];
  let bytes = 0;
  let by: "lines" | "bytes" = "lines";
  for (const line of lines) {
    if (kept.length >= maxLines) break;
    const cost = bytesOf(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + cost > maxBytes) {
      by = "bytes";
      break;
    }
    kept.push(line);
    bytes += cost;
  }
  const text = kept.join("\n");
  return { ...base, content: text, truncated: true, truncatedBy: by, outputLines: kept.length, outputBytes: bytesOf(text), firstLineExceedsLimit: false };
}

/** Keeps the last lines that fit both limits (for logs and command output). */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const lines = content.split("\n");
  const base = { totalLines: lines.length, totalBytes: bytesOf(content), maxLines, maxBytes, firstLineExceedsLimit: false };
  if (lines.length <= maxLines && base.totalBytes <= maxBytes) {
    return { ...base, content, truncated: false, truncatedBy: null, outputLines: lines.length, outputBytes: base.totalBytes, lastLinePartial: false };
  }
  const kept: string[] = [];
  let bytes = 0;
  let by: "lines" | "bytes" = "lines";
  let partial = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (kept.length >= maxLines) break;
    const line = lines[i]!;
    const cost = bytesOf(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + cost > maxBytes) {
      by = "bytes";
      if (kept.length === 0) {
        // The last line alone is too long: keep its end, the one case a partial line is returned.
        kept.unshift(tailBytes(line, maxBytes));
        partial = true;
      }
      break;
    }
    kept.unshift(line);
    bytes += cost;
  }
  const text = kept.join("\n");
  return { ...base, content: text, truncated: true, truncatedBy: by, outputLines: kept.length, outputBytes: bytesOf(text), lastLinePartial: partial };
}

/** Cuts one line to `maxChars` characters, marking the cut as pi does. */
export function truncateLine(line: string, maxChars = 500): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}

/** The longest end of `text` that fits in `maxBytes` without splitting a character. */
function tailBytes(text: string, maxBytes: number): string {
  const chars = [...text];
  let bytes = 0;
  let start = chars.length;
  while (start > 0 && bytes + bytesOf(chars[start - 1]!) <= maxBytes) bytes += bytesOf(chars[--start]!);
  return chars.slice(start).join("");
}
