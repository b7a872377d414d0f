/**
 * What pi's `grep` tool says and how it runs ripgrep, whatever machine the files are on: parameters,
 * description, argument checks, rg's command line and the reading of rg's JSON match events. Shared by
 * the local and the remote grep tools (the output format is grep-format.ts).
 */
import { Type, type Static } from "@sinclair/typebox";
import { TOOL_LIMITS } from "../../contracts/tool.js";
import { GREP_MAX_LINE_LENGTH } from "../text/truncate.js";
import type { GrepMatch, GrepQuery } from "./grep-types.js";

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

/** The arguments of one grep call. */
export type GrepParams = Static<typeof GrepParameters>;

/** pi's default match limit. */
export const DEFAULT_GREP_LIMIT = 100;

/** pi's grep description, shown to the model. */
export const GREP_DESCRIPTION =
  `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to ` +
  `${DEFAULT_GREP_LIMIT} matches or ${TOOL_LIMITS.maxBytes / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`;

/** A call's checked numbers (pi: a limit below 1 means 1, a negative context means none); one-line errors otherwise. */
export function grepArguments(params: GrepParams): { limit: number; context: number } {
  if (typeof params.pattern !== "string" || params.pattern === "")
    throw new Error("grep: `pattern` must be a non-empty string");
  return {
    limit: Math.max(1, wholeNumber(params.limit, "limit", DEFAULT_GREP_LIMIT)),
    context: Math.max(0, wholeNumber(params.context, "context", 0)),
  };
}

/** A numeric parameter rounded down, its default when absent, or a one-line error. */
function wholeNumber(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`grep: \`${name}\` must be a number`);
  return Math.floor(value);
}

/** rg's arguments: pi's flags plus path order, .git/ excluded and `--no-require-git` when this rg has it. */
export function ripgrepArguments(
  query: Pick<GrepQuery, "pattern" | "searchPath" | "ignoreCase" | "literal" | "glob">,
  noRequireGit: boolean,
): string[] {
  const args = ["--json", "--line-number", "--color=never", "--hidden", "--sort", "path"];
  if (noRequireGit) args.push("--no-require-git");
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.literal) args.push("--fixed-strings");
  if (query.glob !== undefined) args.push("--glob", query.glob);
  args.push("--glob", "!.git", "--", query.pattern, query.searchPath);
  return args;
}

/** A `match` event of rg's JSON output as a GrepMatch; undefined for any other line. */
export function parseRipgrepMatch(line: string): GrepMatch | undefined {
  let event: any;
  try {
    event = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (event?.type !== "match") return undefined;
  const data = event.data;
  const path = data?.path?.text;
  const lineNumber = data?.line_number;
  if (typeof path !== "string" || typeof lineNumber !== "number") return undefined;
  const raw: string =
    typeof data.lines?.text === "string"
      ? data.lines.text
      : typeof data.lines?.bytes === "string"
        ? Buffer.from(data.lines.bytes, "base64").toString("utf8")
        : "";
  return { path, lineNumber, lineText: raw.replace(/\r?\n$/, "").replace(/\r/g, "") };
}
