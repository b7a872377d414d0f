/**
 * pi's output limits as functions: keep the head (file reads, search results) or the tail (command
 * output) of a text within 2,000 lines or 50 KB, never cutting a line in half except the one line a tail
 * cut keeps; cut one long line; print a byte count. Results use pi's `TruncationResult` shape (defined by
 * the tool contract) so UIs and session files that read `details.truncation` keep working. The built-in
 * tools and pi extensions' `truncateHead`/`truncateTail` all use these.
 */
import { TOOL_LIMITS } from "../../contracts/tool.js";
import type { TruncationLimits, TruncationResult } from "../../contracts/tool-output.js";

/** pi's cap on one grep output line, and the default of `truncateLine`. */
export const GREP_MAX_LINE_LENGTH = 500;

/** How a head cut by bytes went: pi's truncation details without the text and the line limit. */
export type HeadTruncation = Omit<
  TruncationResult,
  "content" | "truncatedBy" | "lastLinePartial" | "firstLineExceedsLimit" | "maxLines"
> & {
  truncatedBy: "bytes" | null;
};

const bytesOf = (text: string): number => Buffer.byteLength(text, "utf-8");

/** The first whole lines of `text` that fit both limits. */
export function truncateHead(text: string, limits: TruncationLimits = {}): TruncationResult {
  const maxLines = limits.maxLines ?? TOOL_LIMITS.maxLines;
  const maxBytes = limits.maxBytes ?? TOOL_LIMITS.maxBytes;
  const totalBytes = bytesOf(text);
  const lines = text.split("\n");
  const totalLines = lines.length;
  const base = { totalLines, totalBytes, lastLinePartial: false, maxLines, maxBytes };

  if (totalLines <= maxLines && totalBytes <= maxBytes) {
    return {
      ...base,
      content: text,
      truncated: false,
      truncatedBy: null,
      outputLines: totalLines,
      outputBytes: totalBytes,
      firstLineExceedsLimit: false,
    };
  }
  if (bytesOf(lines[0]) > maxBytes) {
    return {
      ...base,
      content: "",
      truncated: true,
      truncatedBy: "bytes",
      outputLines: 0,
      outputBytes: 0,
      firstLineExceedsLimit: true,
    };
  }

  let keptLines = 0;
  let keptBytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  while (keptLines < lines.length && keptLines < maxLines) {
    const lineBytes = bytesOf(lines[keptLines]) + (keptLines > 0 ? 1 : 0);
    if (keptBytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    keptBytes += lineBytes;
    keptLines += 1;
  }
  const content = lines.slice(0, keptLines).join("\n");
  return {
    ...base,
    content,
    truncated: true,
    truncatedBy,
    outputLines: keptLines,
    outputBytes: bytesOf(content),
    firstLineExceedsLimit: false,
  };
}

/** Keeps the last lines that fit both limits (for logs and command output). */
export function truncateTail(content: string, limits: TruncationLimits = {}): TruncationResult {
  const maxLines = limits.maxLines ?? TOOL_LIMITS.maxLines;
  const maxBytes = limits.maxBytes ?? TOOL_LIMITS.maxBytes;
  const lines = content.split("\n");
  const base = {
    totalLines: lines.length,
    totalBytes: bytesOf(content),
    maxLines,
    maxBytes,
    firstLineExceedsLimit: false,
  };
  if (lines.length <= maxLines && base.totalBytes <= maxBytes) {
    return {
      ...base,
      content,
      truncated: false,
      truncatedBy: null,
      outputLines: lines.length,
      outputBytes: base.totalBytes,
      lastLinePartial: false,
    };
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
  return {
    ...base,
    content: text,
    truncated: true,
    truncatedBy: by,
    outputLines: kept.length,
    outputBytes: bytesOf(text),
    lastLinePartial: partial,
  };
}

/** Keeps the first whole lines of `text` that fit in `maxBytes`. */
export function truncateHeadBytes(text: string, maxBytes: number): { text: string; truncation: HeadTruncation } {
  const totalBytes = Buffer.byteLength(text);
  const lines = text.split("\n");
  if (totalBytes <= maxBytes) {
    return {
      text,
      truncation: {
        truncated: false,
        truncatedBy: null,
        totalLines: lines.length,
        totalBytes,
        outputLines: lines.length,
        outputBytes: totalBytes,
        maxBytes,
      },
    };
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
    truncation: {
      truncated: true,
      truncatedBy: "bytes",
      totalLines: lines.length,
      totalBytes,
      outputLines: count,
      outputBytes: bytes,
      maxBytes,
    },
  };
}

/** Cuts one line to `maxChars` characters, marking the cut as pi does. */
export function truncateLine(line: string, maxChars = GREP_MAX_LINE_LENGTH): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}

/** A byte count as pi prints it: "512B", "50.0KB", "1.2MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** The longest end of `text` that fits in `maxBytes` without splitting a character. */
function tailBytes(text: string, maxBytes: number): string {
  const chars = [...text];
  let bytes = 0;
  let start = chars.length;
  while (start > 0 && bytes + bytesOf(chars[start - 1]!) <= maxBytes) bytes += bytesOf(chars[--start]!);
  return chars.slice(start).join("");
}
