/**
 * What pi's `find` tool says, whatever file system it searches: parameters, description, argument
 * checks, fd's command line as pi runs it, and the result with pi's limit and 50 KB notes. Shared by
 * the local and the remote find tools.
 */
import { Type, type Static } from "@sinclair/typebox";
import { TOOL_LIMITS } from "../../contracts/tool.js";
import { formatSize, type HeadTruncation, truncateHeadBytes } from "../text/truncate.js";
import { compileFindPattern, type FindPattern } from "./find-pattern.js";

/** pi's find parameters, names and meaning unchanged. */
export const FindParameters = Type.Object({
  pattern: Type.String({ description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'" }),
  path: Type.Optional(Type.String({ description: "Directory to search in (default: current directory)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of results (default: 1000)" })),
});

/** The arguments of one find call. */
export type FindParams = Static<typeof FindParameters>;

/** pi's default result limit. */
export const DEFAULT_FIND_LIMIT = 1000;

/** pi's find description, shown to the model. */
export const FIND_DESCRIPTION =
  `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to ` +
  `${DEFAULT_FIND_LIMIT} results or ${TOOL_LIMITS.maxBytes / 1024}KB (whichever is hit first).`;

/** What a find result carries besides its text (pi's shape): present only when something was cut. */
export interface FindDetails {
  resultLimitReached?: number;
  truncation?: HeadTruncation;
}

/** A call's checked arguments: the result limit and the compiled pattern; one-line errors otherwise. */
export function findArguments(params: FindParams): { limit: number; pattern: FindPattern } {
  if (typeof params.pattern !== "string" || params.pattern === "")
    throw new Error("find: `pattern` must be a non-empty glob");
  if (params.limit !== undefined && (typeof params.limit !== "number" || !Number.isFinite(params.limit)))
    throw new Error("find: `limit` must be a number");
  return {
    limit: Math.max(1, Math.floor(params.limit ?? DEFAULT_FIND_LIMIT)),
    pattern: compileFindPattern(params.pattern),
  };
}

/** fd's arguments as pi runs it (plus .git/ excluded and `--no-require-git` when this fd has it). */
export function fdArguments(pattern: FindPattern, searchPath: string, noRequireGit: boolean): string[] {
  const args = ["--glob", "--color=never", "--hidden", "--exclude", ".git"];
  if (noRequireGit) args.push("--no-require-git");
  if (pattern.fullPath) args.push("--full-path");
  args.push("--", pattern.glob, searchPath);
  return args;
}

/** The one error line of a search tool that failed: its stderr joined on one line, or its exit code. */
export function searchFailure(tool: string, stderr: string, code: number | null): Error {
  const message = stderr
    .trim()
    .split("\n")
    .map((part) => part.trim())
    .filter(Boolean)
    .join(" ");
  return new Error(message || `${tool} exited with code ${code}`);
}

/** pi's output: one path per line, then notes on the limits that cut it ("No files found" when empty). */
export function findResult(
  found: string[],
  limit: number,
): { content: Array<{ type: "text"; text: string }>; details: FindDetails | undefined } {
  if (found.length === 0)
    return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };
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
