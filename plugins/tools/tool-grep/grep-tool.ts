/**
 * pi's `grep` tool: searches file contents and answers `path:line: text` lines (context lines as
 * `path-line- text`), at most `limit` matches (default 100), lines cut at 500 characters, the output at
 * 50 KB, with pi's notes on how to see more. ripgrep runs it when available; a pure-Node search with the
 * same output otherwise (or when configured).
 */
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { Type, type Static } from "@sinclair/typebox";
import {
  TOOL_LIMITS,
  type AgentTool,
  insideGitRepository,
  probeNativeTool,
  resolveToCwd,
  type NativeTool,
  GREP_MAX_LINE_LENGTH,
} from "pi-host";
import { searchWithNode } from "./node-search.js";
import { searchWithRipgrep } from "./ripgrep-search.js";
import type { GrepMatch, GrepQuery } from "./search-types.js";
import { formatMatches, type GrepDetails } from "./format-matches.js";

/** pi's grep parameters, names and meaning unchanged. */
export const GrepParameters = Type.Object({
  pattern: Type.String({ description: "Search pattern (regex or literal string)" }),
  path: Type.Optional(Type.String({ description: "Directory or file to search (default: current directory)" })),
  glob: Type.Optional(Type.String({ description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" })),
  ignoreCase: Type.Optional(Type.Boolean({ description: "Case-insensitive search (default: false)" })),
  literal: Type.Optional(
    Type.Boolean({ description: "Treat pattern as literal string instead of regex (default: false)" }),
  ),
  context: Type.Optional(
    Type.Number({ description: "Number of lines to show before and after each match (default: 0)" }),
  ),
  limit: Type.Optional(Type.Number({ description: "Maximum number of matches to return (default: 100)" })),
});

/** pi's default match limit. */
export const DEFAULT_GREP_LIMIT = 100;

export type { GrepDetails } from "./format-matches.js";

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
    description:
      `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to ` +
      `${DEFAULT_GREP_LIMIT} matches or ${TOOL_LIMITS.maxBytes / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`,
    parameters: GrepParameters,
    async execute(_toolCallId, params: Static<typeof GrepParameters>, signal, _onUpdate, ctx) {
      if (typeof params.pattern !== "string" || params.pattern === "")
        throw new Error("grep: `pattern` must be a non-empty string");
      // As in pi: a limit below 1 means 1, a negative context means none.
      const limit = Math.max(1, wholeNumber(params.limit, "limit", DEFAULT_GREP_LIMIT));
      const context = Math.max(0, wholeNumber(params.context, "context", 0));
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
      return formatMatches(matches, { searchPath, isDirectory, limit, context });
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

/** A numeric parameter rounded down, its default when absent, or a one-line error. */
function wholeNumber(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`grep: \`${name}\` must be a number`);
  return Math.floor(value);
}

function combineSignals(call: AbortSignal | undefined, lifetime: AbortSignal | undefined): AbortSignal | undefined {
  if (call === undefined) return lifetime;
  if (lifetime === undefined) return call;
  return AbortSignal.any([call, lifetime]);
}
