/**
 * pi's `find` tool: lists paths matching a glob under a folder, relative to it (folders end in "/"),
 * respecting .gitignore, at most `limit` (default 1,000) and 50 KB, with pi's notes on how to see more.
 * fd runs it when available (`fd`, or `fdfind` as Debian names it); a pure-Node search with the same
 * output otherwise (or when configured). Results are sorted by path (pi prints fd's unordered output).
 */
import { stat } from "node:fs/promises";
import { Type, type Static } from "@sinclair/typebox";
import {
  TOOL_LIMITS,
  type AgentTool,
  insideGitRepository,
  probeNativeTool,
  resolveToCwd,
  type NativeTool,
  formatSize,
  truncateHeadBytes,
  type HeadTruncation,
} from "pi-host";
import { searchWithFd } from "./fd-search.js";
import { compileFindPattern, type FindPattern } from "./find-pattern.js";
import { searchWithNode } from "./node-search.js";

/** pi's find parameters, names and meaning unchanged. */
export const FindParameters = Type.Object({
  pattern: Type.String({ description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'" }),
  path: Type.Optional(Type.String({ description: "Directory to search in (default: current directory)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of results (default: 1000)" })),
});

/** pi's default result limit. */
export const DEFAULT_FIND_LIMIT = 1000;

/** What a find result carries besides its text (pi's shape): present only when something was cut. */
export interface FindDetails {
  resultLimitReached?: number;
  truncation?: HeadTruncation;
}

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
    description:
      `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to ` +
      `${DEFAULT_FIND_LIMIT} results or ${TOOL_LIMITS.maxBytes / 1024}KB (whichever is hit first).`,
    parameters: FindParameters,
    async execute(_toolCallId, params: Static<typeof FindParameters>, signal, _onUpdate, ctx) {
      if (typeof params.pattern !== "string" || params.pattern === "")
        throw new Error("find: `pattern` must be a non-empty glob");
      if (params.limit !== undefined && (typeof params.limit !== "number" || !Number.isFinite(params.limit)))
        throw new Error("find: `limit` must be a number");
      const limit = Math.max(1, Math.floor(params.limit ?? DEFAULT_FIND_LIMIT));
      const pattern = compileFindPattern(params.pattern);
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
      const found = await search(searchPath, pattern, limit, combined);
      if (found.length === 0)
        return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };
      return formatResults(found, limit);
    },
  };
}

/** pi's output: one path per line, then notes on the limits that cut it. */
function formatResults(
  found: string[],
  limit: number,
): { content: Array<{ type: "text"; text: string }>; details: FindDetails | undefined } {
  const limitReached = found.length > limit;
  const { text, truncation } = truncateHeadBytes(found.slice(0, limit).join("\n"), TOOL_LIMITS.maxBytes);
  const details: FindDetails = {};
  const notices: string[] = [];
  if (limitReached) {
    notices.push(`${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`);
    details.resultLimitReached = limit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(TOOL_LIMITS.maxBytes)} limit reached`);
    details.truncation = truncation;
  }
  const withNotes = notices.length > 0 ? `${text}\n\n[${notices.join(". ")}]` : text;
  return {
    content: [{ type: "text", text: withNotes }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}
