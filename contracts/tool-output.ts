/**
 * Keeps the head of a text within pi's output limits (2,000 lines or 50 KB, whichever comes first),
 * never cutting a line in half, and reports what was kept in pi's TruncationResult shape so UIs and
 * session files that read `details.truncation` keep working.
 */
import { TOOL_LIMITS } from "./tool.js";

/** pi's `details.truncation` shape. */
export interface TruncationResult {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  lastLinePartial: boolean;
  /** The first line alone is over the byte limit, so nothing could be shown. */
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

/** Limits for one truncation; defaults are TOOL_LIMITS. */
export interface TruncationLimits {
  maxLines?: number;
  maxBytes?: number;
}

/** The first whole lines of `text` that fit both limits. */
export function truncateHead(text: string, limits: TruncationLimits = {}): TruncationResult {
  const maxLines = limits.maxLines ?? TOOL_LIMITS.maxLines;
  const maxBytes = limits.maxBytes ?? TOOL_LIMITS.maxBytes;
  const totalBytes = Buffer.byteLength(text, "utf-8");
  const lines = text.split("\n");
  const totalLines = lines.length;
  const base = { totalLines, totalBytes, lastLinePartial: false, maxLines, maxBytes };

  if (totalLines <= maxLines && totalBytes <= maxBytes) {
    return { ...base, content: text, truncated: false, truncatedBy: null, outputLines: totalLines, outputBytes: totalBytes, firstLineExceedsLimit: false };
  }
  if (Buffer.byteLength(lines[0], "utf-8") > maxBytes) {
    return { ...base, content: "", truncated: true, truncatedBy: "bytes", outputLines: 0, outputBytes: 0, firstLineExceedsLimit: true };
  }

  let keptLines = 0;
  let keptBytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  while (keptLines < lines.length && keptLines < maxLines) {
    const lineBytes = Buffer.byteLength(lines[keptLines], "utf-8") + (keptLines > 0 ? 1 : 0);
    if (keptBytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    keptBytes += lineBytes;
    keptLines += 1;
  }
  const content = lines.slice(0, keptLines).join("\n");
  return { ...base, content, truncated: true, truncatedBy, outputLines: keptLines, outputBytes: Buffer.byteLength(content, "utf-8"), firstLineExceedsLimit: false };
}

/** A byte count as pi prints it: "512B", "50.0KB", "1.2MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
