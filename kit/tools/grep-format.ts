/**
 * Grep output in pi's format: `path:line: text` for matches, `path-line- text` for context lines, paths
 * relative to the searched folder (the file name when a single file was searched), long lines cut, the
 * whole cut at 50 KB, and pi's notes saying what was left out and how to see more. Shared by the local
 * and the remote grep tools; each hands in how it reads a file's lines for context.
 */
import { posix } from "node:path";
import { TOOL_LIMITS } from "../../contracts/tool.js";
import {
  formatSize,
  GREP_MAX_LINE_LENGTH,
  type HeadTruncation,
  truncateHeadBytes,
  truncateLine,
} from "../text/truncate.js";
import type { GrepMatch } from "./grep-types.js";

/**
 * Reads a file's lines (line breaks and "\r" removed) up to line `lastNeeded`; undefined when the file
 * cannot be read.
 */
export type GrepLineReader = (path: string, lastNeeded: number) => Promise<string[] | undefined>;

/** What a grep result carries besides its text (pi's shape): present only when something was cut. */
export interface GrepDetails {
  matchLimitReached?: number;
  truncation?: HeadTruncation;
  linesTruncated?: boolean;
}

/** Turns matches into pi's output text, notes and details. */
export async function formatMatches(
  matches: GrepMatch[],
  shape: { searchPath: string; isDirectory: boolean; limit: number; context: number },
  readLines: GrepLineReader,
): Promise<{ content: Array<{ type: "text"; text: string }>; details: GrepDetails | undefined }> {
  const limitReached = matches.length > shape.limit;
  const shown = matches.slice(0, shape.limit);
  const displayPath = (file: string): string => {
    if (shape.isDirectory) {
      const rel = relativePath(shape.searchPath, file);
      if (rel !== "" && !rel.startsWith("..")) return rel;
    }
    return posix.basename(file.split("\\").join("/"));
  };
  const files = new Map<string, string[] | undefined>();
  let linesCut = false;
  const out: string[] = [];
  const shorten = (line: string): string => {
    const cut = truncateLine(line);
    if (cut.wasTruncated) linesCut = true;
    return cut.text;
  };
  // Context blocks of nearby matches in one file overlap; each line is printed once (pi repeats them),
  // and a match line inside another match's context is still printed as a match.
  const matchLines = new Map<string, Set<number>>();
  for (const match of shown) {
    if (!matchLines.has(match.path)) matchLines.set(match.path, new Set());
    matchLines.get(match.path)!.add(match.lineNumber);
  }
  let printedFile = "";
  let printedUpTo = 0;
  for (const match of shown) {
    const name = displayPath(match.path);
    if (shape.context === 0) {
      out.push(`${name}:${match.lineNumber}: ${shorten(match.lineText)}`);
      continue;
    }
    if (!files.has(match.path))
      files.set(match.path, await readLines(match.path, Math.max(...matchLines.get(match.path)!) + shape.context));
    const lines = files.get(match.path);
    if (lines === undefined) {
      out.push(`${name}:${match.lineNumber}: (unable to read file)`);
      continue;
    }
    const alreadyPrinted = printedFile === match.path ? printedUpTo : 0;
    const first = Math.max(1, match.lineNumber - shape.context, alreadyPrinted + 1);
    const last = Math.min(lines.length, match.lineNumber + shape.context);
    for (let n = first; n <= last; n++) {
      const text = shorten(lines[n - 1] ?? "");
      out.push(matchLines.get(match.path)!.has(n) ? `${name}:${n}: ${text}` : `${name}-${n}- ${text}`);
    }
    printedFile = match.path;
    printedUpTo = Math.max(alreadyPrinted, last);
  }

  const { text, truncation } = truncateHeadBytes(out.join("\n"), TOOL_LIMITS.maxBytes);
  const details: GrepDetails = {};
  const notices: string[] = [];
  if (limitReached) {
    notices.push(`${shape.limit} matches limit reached. Use limit=${shape.limit * 2} for more, or refine pattern`);
    details.matchLimitReached = shape.limit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(TOOL_LIMITS.maxBytes)} limit reached`);
    details.truncation = truncation;
  }
  if (linesCut) {
    notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
    details.linesTruncated = true;
  }
  const withNotes = notices.length > 0 ? `${text}\n\n[${notices.join(". ")}]` : text;
  return {
    content: [{ type: "text", text: withNotes }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}

/** `file` relative to `root` with "/" separators, on POSIX and Windows paths alike. */
function relativePath(root: string, file: string): string {
  const slash = (path: string) => path.split("\\").join("/");
  return posix.relative(slash(root), slash(file));
}
