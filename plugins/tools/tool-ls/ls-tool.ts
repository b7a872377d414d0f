/**
 * The `ls` tool: pi's parameters (path, limit) and output. One folder's entries, dotfiles included,
 * sorted alphabetically ignoring case, folders marked with a trailing "/", cut at `limit` entries
 * (default 500) or 50 KB with a note saying how to see more.
 */
import type { Dirent } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { TOOL_LIMITS, type AgentTool, type ToolContext, type ToolResult, resolveToCwd } from "pi-host";
import { formatSize, truncateHead, type TruncationResult } from "pi-host";

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

/** Builds the ls tool; it holds no state, so one instance serves every session. */
export function createLsTool(): AgentTool<typeof LsParameters, LsToolDetails | undefined> {
  return {
    name: "ls",
    label: "ls",
    description:
      `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. ` +
      `Output is truncated to ${DEFAULT_LS_LIMIT} entries or ${TOOL_LIMITS.maxBytes / 1024}KB (whichever is hit first).`,
    parameters: LsParameters,
    execute: (_toolCallId, params, signal, _onUpdate, ctx) => listFolder(params, signal, ctx),
  };
}

async function listFolder(
  { path, limit }: LsParams,
  signal: AbortSignal | undefined,
  ctx: ToolContext,
): Promise<ToolResult<LsToolDetails | undefined>> {
  throwIfAborted(signal);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new Error(`limit must be a whole number of entries (1 or more), got ${limit}`);
  }
  const entryLimit = limit ?? DEFAULT_LS_LIMIT;
  const folder = resolveToCwd(path || ".", ctx.cwd);
  const folderStats = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new Error(`Path not found: ${folder}`);
    throw new Error(`Cannot read directory: ${error.message}`);
  });
  if (!folderStats.isDirectory()) throw new Error(`Not a directory: ${folder}`);
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: Error) => {
    throw new Error(`Cannot read directory: ${error.message}`);
  });
  throwIfAborted(signal);

  entries.sort((a, b) => compareNames(a.name, b.name));
  const shown = entries.slice(0, entryLimit);
  const names = (await Promise.all(shown.map((entry) => displayName(folder, entry)))).filter(
    (name) => name !== undefined,
  );
  throwIfAborted(signal);
  if (names.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };

  const truncation = truncateHead(names.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  const details: LsToolDetails = {};
  const notices: string[] = [];
  if (entries.length > entryLimit) {
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

/** Alphabetical ignoring case; names differing only in case keep a fixed order. */
function compareNames(a: string, b: string): number {
  const byLetters = a.toLowerCase().localeCompare(b.toLowerCase(), "en");
  if (byLetters !== 0) return byLetters;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The entry's name, with "/" for a folder or a link to one; a dangling link is listed as a plain
 * entry, and an entry that vanished since readdir is left out.
 */
async function displayName(folder: string, entry: Dirent): Promise<string | undefined> {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (!entry.isSymbolicLink()) return entry.name;
  const fullPath = join(folder, entry.name);
  try {
    return (await stat(fullPath)).isDirectory() ? `${entry.name}/` : entry.name;
  } catch {
    return (await lstat(fullPath).then(
      () => true,
      () => false,
    ))
      ? entry.name
      : undefined;
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
