/**
 * pi's output-limit helpers (`truncateHead`, `truncateTail`, `truncateLine`, `formatSize` and the
 * default limits), which pi's docs tell extension tools to use. They are pi-host's own (kit), under the
 * names pi's module exports.
 */
import { TOOL_LIMITS, type TruncationLimits } from "pi-host";

export { formatSize, truncateHead, truncateLine, truncateTail, type TruncationResult } from "pi-host";

/** pi's `TruncationOptions`. */
export type TruncationOptions = TruncationLimits;

/** pi's default line limit for tool output. */
export const DEFAULT_MAX_LINES = TOOL_LIMITS.maxLines;
/** pi's default byte limit for tool output. */
export const DEFAULT_MAX_BYTES = TOOL_LIMITS.maxBytes;
