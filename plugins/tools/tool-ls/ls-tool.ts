/**
 * The `ls` tool: pi's parameters (path, limit) and output. One folder's entries, dotfiles included,
 * sorted alphabetically ignoring case, folders marked with a trailing "/", cut at `limit` entries
 * (default 500) or 50 KB with a note saying how to see more.
 */
import type { Dirent } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  compareEntryNames,
  LS_DESCRIPTION,
  lsEntryLimit,
  lsFailure,
  lsListingResult,
  LsParameters,
  resolveToCwd,
  throwIfToolAborted,
  type AgentTool,
  type LsParams,
  type LsToolDetails,
  type ToolContext,
  type ToolResult,
} from "pi-host";

export { DEFAULT_LS_LIMIT, LsParameters, type LsParams, type LsToolDetails } from "pi-host";

/** Builds the ls tool; it holds no state, so one instance serves every session. */
export function createLsTool(): AgentTool<typeof LsParameters, LsToolDetails | undefined> {
  return {
    name: "ls",
    label: "ls",
    description: LS_DESCRIPTION,
    parameters: LsParameters,
    execute: (_toolCallId, params, signal, _onUpdate, ctx) => listFolder(params, signal, ctx),
  };
}

async function listFolder(
  { path, limit }: LsParams,
  signal: AbortSignal | undefined,
  ctx: ToolContext,
): Promise<ToolResult<LsToolDetails | undefined>> {
  throwIfToolAborted(signal);
  const entryLimit = lsEntryLimit(limit);
  const folder = resolveToCwd(path || ".", ctx.cwd);
  const folderStats = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") throw lsFailure(folder, "not-found");
    throw new Error(`Cannot read directory: ${error.message}`);
  });
  if (!folderStats.isDirectory()) throw lsFailure(folder, "not-directory");
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: Error) => {
    throw new Error(`Cannot read directory: ${error.message}`);
  });
  throwIfToolAborted(signal);

  entries.sort((a, b) => compareEntryNames(a.name, b.name));
  const shown = entries.slice(0, entryLimit);
  const names = (await Promise.all(shown.map((entry) => displayName(folder, entry)))).filter(
    (name) => name !== undefined,
  );
  throwIfToolAborted(signal);
  return lsListingResult(names, entries.length, entryLimit);
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
