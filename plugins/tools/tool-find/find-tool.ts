/**
 * pi's `find` tool: lists paths matching a glob under a folder, relative to it (folders end in "/"),
 * respecting .gitignore, at most `limit` (default 1,000) and 50 KB, with pi's notes on how to see more.
 * fd runs it when available (`fd`, or `fdfind` as Debian names it); a pure-Node search with the same
 * output otherwise (or when configured). Results are sorted by path (pi prints fd's unordered output).
 */
import { stat } from "node:fs/promises";
import {
  FIND_DESCRIPTION,
  findArguments,
  FindParameters,
  findResult,
  insideGitRepository,
  probeNativeTool,
  resolveToCwd,
  type AgentTool,
  type FindDetails,
  type FindParams,
  type FindPattern,
  type NativeTool,
} from "pi-host";
import { searchWithFd } from "./fd-search.js";
import { searchWithNode } from "./node-search.js";

export { DEFAULT_FIND_LIMIT, FindParameters, type FindDetails } from "pi-host";

/** Which search runs: fd when usable ("auto"), fd always ("native"), or the pure-Node search ("node"). */
export type FindBackend = "auto" | "native" | "node";

/** How the tool is set up. */
export interface FindToolOptions {
  backend?: FindBackend;
  /** Aborts every running search when it fires (the plugin passes its generation's signal). */
  lifetime?: AbortSignal;
}

/** Builds the find tool. */
export function createFindTool(
  options: FindToolOptions = {},
): AgentTool<typeof FindParameters, FindDetails | undefined> {
  const backend = options.backend ?? "auto";
  let fdProbe: Promise<NativeTool | undefined> | undefined;
  const findFd = () => (fdProbe ??= probeNativeTool(["fd", "fdfind"]));

  const search = async (
    searchPath: string,
    pattern: FindPattern,
    limit: number,
    signal: AbortSignal | undefined,
  ): Promise<string[]> => {
    if (backend === "node") return searchWithNode(searchPath, pattern, limit + 1, signal);
    const fd = await findFd();
    if (backend === "native") {
      if (fd === undefined)
        throw new Error('fd (fd or fdfind) is not on PATH; set the find backend to "auto" or "node"');
      return searchWithFd(fd, searchPath, pattern, signal);
    }
    // An fd without --no-require-git applies .gitignore only inside a git repository; Node applies it everywhere.
    if (fd !== undefined && (fd.noRequireGit || insideGitRepository(searchPath)))
      return searchWithFd(fd, searchPath, pattern, signal);
    return searchWithNode(searchPath, pattern, limit + 1, signal);
  };

  return {
    name: "find",
    label: "find",
    description: FIND_DESCRIPTION,
    parameters: FindParameters,
    async execute(_toolCallId, params: FindParams, signal, _onUpdate, ctx) {
      const { limit, pattern } = findArguments(params);
      const searchPath = resolveToCwd(params.path || ".", ctx.cwd);
      let isDirectory: boolean;
      try {
        isDirectory = (await stat(searchPath)).isDirectory();
      } catch {
        throw new Error(`Path not found: ${searchPath}`);
      }
      if (!isDirectory) throw new Error(`Not a directory: ${searchPath}`);
      const combined =
        signal === undefined
          ? options.lifetime
          : options.lifetime === undefined
            ? signal
            : AbortSignal.any([signal, options.lifetime]);
      return findResult(await search(searchPath, pattern, limit, combined), limit);
    },
  };
}
