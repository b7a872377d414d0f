/**
 * The pure-Node find backend for machines without fd: the walk fd does (.gitignore, .git/ excluded,
 * hidden files, symlinks listed but not followed) in sorted order, matching names or full paths as fd
 * does, stopping once `maxResults` are found.
 */
import { parseIgnoreRule, walk, type FindPattern, type IgnoreRule } from "pi-host";

/** fd's `--exclude .git`, as an override. */
const EXCLUDE_GIT: IgnoreRule[] = [parseIgnoreRule("!.git")!];

/** Matches under `searchPath`, relative to it, folders ending in "/", sorted, at most `maxResults`. */
export async function searchWithNode(
  searchPath: string,
  pattern: FindPattern,
  maxResults: number,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of walk({ root: searchPath, overrides: EXCLUDE_GIT, signal })) {
    if (!pattern.matches(entry.path, entry.name)) continue;
    found.push(entry.kind === "dir" ? `${entry.relative}/` : entry.relative);
    if (found.length >= maxResults) break;
  }
  if (signal?.aborted) throw new Error("Operation aborted");
  return found;
}
