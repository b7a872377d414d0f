/**
 * grep and find on the remote folder: the remote's rg / fd (or fdfind) when it has them, run with the
 * local tools' command lines, else POSIX grep / find; results read, sorted and formatted by kit's shared
 * code, so the model sees the local tools' output, limits and notes.
 */
import { posix } from "node:path";
import {
  comparePaths,
  fdArguments,
  FIND_DESCRIPTION,
  findArguments,
  FindParameters,
  findResult,
  formatMatches,
  GREP_DESCRIPTION,
  grepArguments,
  GrepParameters,
  parseRipgrepMatch,
  ripgrepArguments,
  searchFailure,
  throwIfToolAborted,
  type AgentTool,
  type FindDetails,
  type FindPattern,
  type GrepDetails,
  type GrepMatch,
  type GrepQuery,
} from "pi-host";
import { remotePath } from "./remote-file-tools.js";
import type { HostSource, RemoteHost } from "./remote-host.js";
import { capture, type RemoteRunner } from "./runner.js";

/** After this much search output the search stops with what it has; the answer is cut at 50 KB anyway. */
const MAX_SEARCH_OUTPUT_BYTES = 64 * 1024 * 1024;

/** `[ -d ]`/`[ -f ]` of a search path: 0 folder, 1 file, 2 missing, 3 special. */
const KIND = `if [ -d "$1" ]; then exit 0; elif [ -f "$1" ]; then exit 1; elif [ -e "$1" ]; then exit 3; else exit 2; fi`;

async function pathKind(runner: RemoteRunner, path: string): Promise<"dir" | "file" | "missing" | "special"> {
  const { code } = await capture(runner, ["sh", "-c", KIND, "sh", path]);
  return code === 0 ? "dir" : code === 1 ? "file" : code === 3 ? "special" : "missing";
}

/** The remote `find`. */
export function createRemoteFind(connection: HostSource): AgentTool<typeof FindParameters, FindDetails | undefined> {
  return {
    name: "find",
    label: "find",
    description: FIND_DESCRIPTION,
    parameters: FindParameters,
    async execute(_id, params, signal) {
      const { limit, pattern } = findArguments(params);
      const host = await connection.host();
      const searchPath = remotePath(host, params.path || ".");
      const kind = await pathKind(host.runner, searchPath);
      if (kind === "missing") throw new Error(`Path not found: ${searchPath}`);
      if (kind !== "dir") throw new Error(`Not a directory: ${searchPath}`);
      const found = await findPaths(host, searchPath, pattern, signal);
      throwIfToolAborted(signal);
      return findResult(found.sort(comparePaths), limit);
    },
  };
}

const POSIX_FIND = `cd -- "$1" && exec find . -name .git -prune -o -type d -exec printf '%s/\\n' {} + -o -print`;

async function findPaths(
  host: RemoteHost,
  searchPath: string,
  pattern: FindPattern,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const fd = host.facts.fd;
  if (fd !== undefined) {
    const argv = ["sh", "-c", 'cd -- "$1" && shift && exec "$@"', "sh", searchPath, fd.path];
    const result = await capture(host.runner, [...argv, ...fdArguments(pattern, searchPath, fd.noRequireGit)], {
      signal,
      maxBytes: MAX_SEARCH_OUTPUT_BYTES,
    });
    const lines = outputLines(result.stdout);
    if (result.code !== 0 && lines.length === 0 && !signal?.aborted)
      throw searchFailure("fd", result.stderr, result.code);
    return lines.map((line) => {
      const rel = posix.relative(searchPath, line.replace(/\/$/, ""));
      return line.endsWith("/") ? `${rel}/` : rel;
    });
  }
  const result = await capture(host.runner, ["sh", "-c", POSIX_FIND, "sh", searchPath], {
    signal,
    maxBytes: MAX_SEARCH_OUTPUT_BYTES,
  });
  const found: string[] = [];
  for (const line of outputLines(result.stdout)) {
    if (line === "./" || line === ".") continue;
    const isDir = line.endsWith("/");
    const rel = line.replace(/^\.\//, "").replace(/\/$/, "");
    if (pattern.matches(posix.join(searchPath, rel), posix.basename(rel))) found.push(isDir ? `${rel}/` : rel);
  }
  return found;
}

function outputLines(stdout: Buffer): string[] {
  return stdout
    .toString("utf-8")
    .split("\n")
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line !== "");
}

/** The remote `grep`. */
export function createRemoteGrep(connection: HostSource): AgentTool<typeof GrepParameters, GrepDetails | undefined> {
  return {
    name: "grep",
    label: "grep",
    description: GREP_DESCRIPTION,
    parameters: GrepParameters,
    async execute(_id, params, signal) {
      const { limit, context } = grepArguments(params);
      const host = await connection.host();
      const searchPath = remotePath(host, params.path || ".");
      const kind = await pathKind(host.runner, searchPath);
      if (kind === "missing") throw new Error(`Path not found: ${searchPath}`);
      if (kind === "special")
        throw new Error(`Cannot search ${searchPath}: it is a special file, not a regular file or a folder.`);
      const query: GrepQuery = {
        searchPath,
        isDirectory: kind === "dir",
        pattern: params.pattern,
        ignoreCase: params.ignoreCase === true,
        literal: params.literal === true,
        glob: params.glob || undefined,
        maxMatches: limit + 1,
        signal,
      };
      const matches = await searchMatches(host, query);
      throwIfToolAborted(signal);
      if (matches.length === 0) return { content: [{ type: "text", text: "No matches found" }], details: undefined };
      return formatMatches(matches, { searchPath, isDirectory: query.isDirectory, limit, context }, (path, last) =>
        remoteLines(host.runner, path, last),
      );
    },
  };
}

/** Matching lines, sorted by path then line, at most `query.maxMatches`. */
async function searchMatches(host: RemoteHost, query: GrepQuery): Promise<GrepMatch[]> {
  const folder = query.isDirectory ? query.searchPath : posix.dirname(query.searchPath);
  const rg = host.facts.rg;
  const stop = new AbortController();
  const signal = query.signal === undefined ? stop.signal : AbortSignal.any([query.signal, stop.signal]);
  const matches: GrepMatch[] = [];
  let pending = "";
  let size = 0;
  const argv = rg !== undefined ? [rg.path, ...ripgrepArguments(query, rg.noRequireGit)] : posixGrepArguments(query);
  const parse = rg !== undefined ? parseRipgrepMatch : parsePosixGrepLine;
  const stderr: Buffer[] = [];
  const end = await host.runner.run(["sh", "-c", 'cd -- "$1" && shift && exec "$@"', "sh", folder, ...argv], {
    signal,
    onStderr: (chunk) => stderr.push(chunk),
    onStdout: (chunk) => {
      if (stop.signal.aborted) return;
      size += chunk.length;
      const lines = (pending + chunk.toString("utf-8")).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const match = parse(line);
        if (match !== undefined) matches.push(match);
      }
      if (matches.length >= query.maxMatches || size > MAX_SEARCH_OUTPUT_BYTES) stop.abort();
    },
  });
  if (!stop.signal.aborted && pending !== "") {
    const match = parse(pending);
    if (match !== undefined) matches.push(match);
  }
  if (query.signal?.aborted) throw new Error("Operation aborted");
  // rg: 1 = no match, 2 = some files unreadable; grep: 1 = no match, 2 = trouble.
  if (!stop.signal.aborted && end.code !== 0 && end.code !== 1 && matches.length === 0)
    throw searchFailure(rg !== undefined ? "ripgrep" : "grep", Buffer.concat(stderr).toString("utf-8"), end.code);
  if (rg === undefined)
    matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.lineNumber - b.lineNumber));
  return matches.slice(0, query.maxMatches);
}

/** POSIX-ish grep (GNU and busybox): recursive, numbered, file names, binary files skipped, .git left out. */
function posixGrepArguments(query: GrepQuery): string[] {
  const args = ["grep", "-r", "-n", "-H", "-I", "-Z", "--exclude-dir=.git"];
  args.push(query.literal ? "-F" : "-E");
  if (query.ignoreCase) args.push("-i");
  if (query.glob !== undefined) args.push(`--include=${query.glob}`);
  args.push("-e", query.pattern, "--", query.searchPath);
  return args;
}

/** One `path\0line:text` line of `grep -Z -n -H`. */
function parsePosixGrepLine(line: string): GrepMatch | undefined {
  const nul = line.indexOf("\0");
  if (nul === -1) return undefined;
  const rest = line.slice(nul + 1);
  const colon = rest.indexOf(":");
  const lineNumber = Number(rest.slice(0, colon));
  if (colon === -1 || !Number.isInteger(lineNumber)) return undefined;
  return { path: line.slice(0, nul), lineNumber, lineText: rest.slice(colon + 1).replace(/\r/g, "") };
}

/** A remote file's lines up to `lastNeeded`, for context lines; undefined when it cannot be read. */
async function remoteLines(runner: RemoteRunner, path: string, lastNeeded: number): Promise<string[] | undefined> {
  const result = await capture(runner, ["sh", "-c", 'exec head -n "$2" -- "$1"', "sh", path, String(lastNeeded)], {
    maxBytes: MAX_SEARCH_OUTPUT_BYTES,
  });
  if (result.code !== 0) return undefined;
  const lines = result.stdout.toString("utf-8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => line.replace(/\r/g, ""));
}
