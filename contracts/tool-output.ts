/**
 * What a tool result says about cut output: pi's `details.truncation` shape, which UIs and session files
 * read. The functions that cut text to these limits live in kit (`truncateHead`, `truncateTail`).
 */

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
