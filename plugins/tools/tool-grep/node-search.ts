/**
 * The pure-Node grep backend for machines without ripgrep: the same walk rg does (.gitignore, .git/,
 * hidden files, --glob overrides, sorted by path), binary files (any NUL byte) skipped as rg skips them,
 * one JavaScript RegExp tested per line. Regex syntax is JavaScript's, which agrees with rg's for
 * everyday patterns; exotic Rust-only syntax (e.g. inline flags like `(?i)`) is not supported here.
 */
import { readFileLines } from "./file-lines.js";
import type { GrepMatch, GrepQuery } from "pi-host";
import { walk, parseIgnoreRule, type IgnoreRule } from "pi-host";

/** Searches like rg would and collects up to `query.maxMatches` matching lines. */
export async function searchWithNode(query: GrepQuery): Promise<GrepMatch[]> {
  const matcher = compilePattern(query);
  const matches: GrepMatch[] = [];
  if (!query.isDirectory) {
    await searchFile(query.searchPath, matcher, matches, query.maxMatches, false, query.signal);
    return matches;
  }
  for await (const entry of walk({
    root: query.searchPath,
    overrides: grepOverrides(query.glob),
    signal: query.signal,
  })) {
    if (entry.kind !== "file") continue;
    if (query.signal?.aborted) throw new Error("Operation aborted");
    await searchFile(entry.path, matcher, matches, query.maxMatches, true, query.signal);
    if (matches.length >= query.maxMatches) break;
  }
  if (query.signal?.aborted) throw new Error("Operation aborted");
  return matches;
}

/** The user's glob (if any) and the .git/ exclusion, as rg receives them. */
function grepOverrides(glob: string | undefined): IgnoreRule[] {
  const globs = glob === undefined ? ["!.git"] : [glob, "!.git"];
  return globs.map((line) => {
    const rule = parseIgnoreRule(line);
    if (rule === undefined) throw new Error(`Invalid glob: "${line}"`);
    return rule;
  });
}

function compilePattern(query: GrepQuery): RegExp {
  const source = query.literal ? query.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : query.pattern;
  try {
    return new RegExp(source, query.ignoreCase ? "i" : "");
  } catch (error) {
    throw new Error(`Invalid regex pattern: ${(error as Error).message}`);
  }
}

async function searchFile(
  path: string,
  matcher: RegExp,
  matches: GrepMatch[],
  maxMatches: number,
  skipBinary: boolean,
  signal?: AbortSignal,
): Promise<void> {
  // A file's matches count only once it is known not to be binary (a NUL byte anywhere), as rg decides.
  const found: GrepMatch[] = [];
  const room = maxMatches - matches.length;
  const read = await readFileLines(
    path,
    (line, lineNumber) => {
      if (matcher.test(line)) found.push({ path, lineNumber, lineText: line.replace(/\r/g, "") });
      return found.length < room;
    },
    { keepScanningForNul: skipBinary, signal },
  );
  // Unreadable files and FIFOs, sockets and devices are skipped, as rg skips them.
  if (!read.readable || (skipBinary && read.sawNul)) return;
  matches.push(...found);
}
