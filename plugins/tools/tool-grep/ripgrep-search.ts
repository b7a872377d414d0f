/**
 * The native grep backend: ripgrep with pi's flags (--json, --hidden; --ignore-case, --fixed-strings,
 * --glob) plus what makes its answer deterministic and equal to the pure-Node search: --sort path,
 * .git/ excluded, .gitignore applied outside git repositories too (--no-require-git when available), and
 * globs relative to the searched folder (rg matches globs against its working directory).
 */
import { dirname } from "node:path";
import { BoundedLineSplitter } from "./bounded-lines.js";
import {
  childProcess,
  parseRipgrepMatch,
  ripgrepArguments,
  searchFailure,
  type GrepMatch,
  type GrepQuery,
  type NativeTool,
} from "pi-host";

/** One rg JSON event longer than this (a match in a huge single-line file) is skipped, not buffered. */
export const MAX_RG_EVENT_BYTES = 16 * 1024 * 1024;
/** After this much rg output the search stops with what it has; the answer is cut at 50 KB anyway. */
export const MAX_RG_OUTPUT_BYTES = 256 * 1024 * 1024;

/** Runs rg and collects up to `query.maxMatches` matching lines. */
export function searchWithRipgrep(
  rg: NativeTool,
  query: GrepQuery,
  limits: { maxEventBytes: number; maxOutputBytes: number } = {
    maxEventBytes: MAX_RG_EVENT_BYTES,
    maxOutputBytes: MAX_RG_OUTPUT_BYTES,
  },
): Promise<GrepMatch[]> {
  return new Promise((resolve, reject) => {
    if (query.signal?.aborted) return reject(new Error("Operation aborted"));
    const args = ripgrepArguments(query, rg.noRequireGit);
    const child = childProcess().spawn(rg.path, args, {
      cwd: query.isDirectory ? query.searchPath : dirname(query.searchPath),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const matches: GrepMatch[] = [];
    let stderr = "";
    let stoppedEarly = false;
    const onAbort = () => child.kill();
    query.signal?.addEventListener("abort", onAbort, { once: true });

    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const stopEarly = (): void => {
      stoppedEarly = true;
      child.kill();
    };
    const lines = new BoundedLineSplitter(
      (line) => {
        if (stoppedEarly) return;
        const match = parseRipgrepMatch(line);
        if (match === undefined) return;
        matches.push(match);
        if (matches.length >= query.maxMatches) stopEarly();
      },
      limits.maxEventBytes,
      limits.maxOutputBytes,
      stopEarly,
    );
    child.stdout.on("data", (chunk: Buffer) => lines.push(chunk));
    child.once("error", (error) => {
      query.signal?.removeEventListener("abort", onAbort);
      reject(new Error(`Failed to run ripgrep: ${error.message}`));
    });
    child.once("close", (code) => {
      query.signal?.removeEventListener("abort", onAbort);
      lines.end();
      if (query.signal?.aborted) return reject(new Error("Operation aborted"));
      // Exit 2 also reports unreadable files; only fail when nothing could be searched.
      if (!stoppedEarly && code !== 0 && code !== 1 && matches.length === 0)
        return reject(searchFailure("ripgrep", stderr, code));
      resolve(matches);
    });
  });
}
