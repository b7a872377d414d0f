/**
 * What pi's `ls` tool says, whatever file system it lists: parameters, description, the name order,
 * and the listing with pi's entry-limit and 50 KB notes. Shared by the local and the remote ls tools.
 */
import { Type, type Static } from "@sinclair/typebox";
import { TOOL_LIMITS, type ToolResult } from "../../contracts/tool.js";
import type { TruncationResult } from "../../contracts/tool-output.js";
import { formatSize, truncateHead } from "../text/truncate.js";

/** pi's default entry limit. */
export const DEFAULT_LS_LIMIT = 500;

/** pi's ls parameters, names and meanings unchanged. */
export const LsParameters = Type.Object({
  path: Type.Optional(Type.String({ description: "Directory to list (default: current directory)" })),
  limit: Type.Optional(
    Type.Number({ description: `Maximum number of entries to return (default: ${DEFAULT_LS_LIMIT})` }),
  ),
});

/** The arguments of one ls call. */
export type LsParams = Static<typeof LsParameters>;

/** pi's ls details: present only when the listing was cut. */
export interface LsToolDetails {
  truncation?: TruncationResult;
  entryLimitReached?: number;
}

/** pi's ls description, shown to the model. */
export const LS_DESCRIPTION =
  `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. ` +
  `Output is truncated to ${DEFAULT_LS_LIMIT} entries or ${TOOL_LIMITS.maxBytes / 1024}KB (whichever is hit first).`;

/** The entry limit of a call, or pi-host's one-line error for a bad one. */
export function lsEntryLimit(limit: number | undefined): number {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new Error(`limit must be a whole number of entries (1 or more), got ${limit}`);
  }
  return limit ?? DEFAULT_LS_LIMIT;
}

/** pi's one lines for a folder ls cannot list (`folder` is the resolved path, as pi prints it). */
export function lsFailure(folder: string, why: "not-found" | "not-directory"): Error {
  return new Error(why === "not-found" ? `Path not found: ${folder}` : `Not a directory: ${folder}`);
}

/** Alphabetical ignoring case; names differing only in case keep a fixed order. */
export function compareEntryNames(a: string, b: string): number {
  const byLetters = a.toLowerCase().localeCompare(b.toLowerCase(), "en");
  if (byLetters !== 0) return byLetters;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The result for the names shown (sorted, at most `entryLimit`, folders ending in "/") out of
 * `totalEntries` in the folder, with pi's notes when the entry limit or the byte limit cut it.
 */
export function lsListingResult(
  names: string[],
  totalEntries: number,
  entryLimit: number,
): ToolResult<LsToolDetails | undefined> {
  if (names.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };
  const truncation = truncateHead(names.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  const details: LsToolDetails = {};
  const notices: string[] = [];
  if (totalEntries > entryLimit) {
    notices.push(`${entryLimit} entries limit reached. Use limit=${entryLimit * 2} for more`);
    details.entryLimitReached = entryLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(TOOL_LIMITS.maxBytes)} limit reached`);
    details.truncation = truncation;
  }
  const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
  return { content: [{ type: "text", text }], details: notices.length > 0 ? details : undefined };
}
