/**
 * pi's `grep` tool: searches file contents and answers `path:line: text` lines (context lines as
 * `path-line- text`), at most `limit` matches (default 100), lines cut at 500 characters, the output at
 * 50 KB, with pi's notes on how to see more. ripgrep runs it when available; a pure-Node search with the
 * same output otherwise (or when configured).
 */
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import {
  formatMatches,
  GREP_DESCRIPTION,
  grepArguments,
  GrepParameters,
  insideGitRepository,
  probeNativeTool,
  resolveToCwd,
  type AgentTool,
  type GrepDetails,
  type GrepMatch,
  type GrepParams,
  type GrepQuery,
  type NativeTool,
} from "pi-host";
import { readLinesUpTo } from "./file-lines.js";
import { searchWithNode } from "./node-search.js";
import { searchWithRipgrep } from "./ripgrep-search.js";

export { DEFAULT_GREP_LIMIT, GrepParameters, type GrepDetails } from "pi-host";

/** Which search runs: rg when usable ("auto"), rg always ("native"), or the pure-Node search ("node"). */
export type GrepBackend = "auto" | "native" | "node";

/** How the tool is set up. */
export interface GrepToolOptions {
  backend?: GrepBackend;
  /** Aborts every running search when it fires (the plugin passes its generation's signal). */
  lifetime?: AbortSignal;
}

/** Builds the grep tool. */
export function createGrepTool(
  options: GrepToolOptions = {},
): AgentTool<typeof GrepParameters, GrepDetails | undefined> {
  const backend = options.backend ?? "auto";
  let ripgrep: Promise<NativeTool | undefined> | undefined;
  const findRipgrep = () => (ripgrep ??= probeNativeTool(["rg"]));

  const search = async (query: GrepQuery): Promise<GrepMatch[]> => {
    if (backend === "node") return searchWithNode(query);
    const rg = await findRipgrep();
    if (backend === "native") {
      if (rg === undefined) throw new Error('ripgrep (rg) is not on PATH; set the grep backend to "auto" or "node"');
      return searchWithRipgrep(rg, query);
    }
    // An old rg applies .gitignore only inside a git repository; the Node search applies it everywhere.
    if (rg !== undefined && (rg.noRequireGit || insideGitRepository(query.searchPath)))
      return searchWithRipgrep(rg, query);
    return searchWithNode(query);
  };

  return {
    name: "grep",
    label: "grep",
    description: GREP_DESCRIPTION,
    parameters: GrepParameters,
    async execute(_toolCallId, params: GrepParams, signal, _onUpdate, ctx) {
      const { limit, context } = grepArguments(params);
      const searchPath = resolveToCwd(params.path || ".", ctx.cwd);
      let stats: Stats;
      try {
        stats = await stat(searchPath);
      } catch {
        throw new Error(`Path not found: ${searchPath}`);
      }
      const isDirectory = stats.isDirectory();
      // A FIFO, socket or device would block the search or never end (/dev/zero); only files and folders are searched.
      if (!isDirectory && !stats.isFile())
        throw new Error(
          `Cannot search ${searchPath}: it is ${describeSpecialFile(stats)}, not a regular file or a folder.`,
        );
      const combined = combineSignals(signal, options.lifetime);
      const matches = await search({
        searchPath,
        isDirectory,
        pattern: params.pattern,
        ignoreCase: params.ignoreCase === true,
        literal: params.literal === true,
        glob: params.glob || undefined,
        maxMatches: limit + 1,
        signal: combined,
      });
      if (matches.length === 0) return { content: [{ type: "text", text: "No matches found" }], details: undefined };
      return formatMatches(matches, { searchPath, isDirectory, limit, context }, readLinesUpTo);
    },
  };
}

/** What a path that is neither a regular file nor a folder is, for the one-line refusal. */
function describeSpecialFile(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "a special file";
}

function combineSignals(call: AbortSignal | undefined, lifetime: AbortSignal | undefined): AbortSignal | undefined {
  if (call === undefined) return lifetime;
  if (lifetime === undefined) return call;
  return AbortSignal.any([call, lifetime]);
}
