/**
 * The native find backend: fd with pi's flags (--glob, --hidden, --full-path for patterns with "/")
 * plus .git/ excluded and .gitignore applied outside git repositories (--no-require-git, when this fd
 * has it). fd walks in parallel and lists in no fixed order, so all results are collected and sorted
 * before the limit applies: the answer is the same on every run and equal to the Node search's.
 */
import { relative, sep } from "node:path";
import {
  childProcess,
  comparePaths,
  fdArguments,
  searchFailure,
  type FindPattern,
  type NativeTool,
  nodeReadline,
} from "pi-host";

/** Runs fd under `searchPath`; resolves with every match relative to it, sorted, folders ending in "/". */
export function searchWithFd(
  fd: NativeTool,
  searchPath: string,
  pattern: FindPattern,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("Operation aborted"));
    const args = fdArguments(pattern, searchPath, fd.noRequireGit);
    const child = childProcess().spawn(fd.path, args, { cwd: searchPath, stdio: ["ignore", "pipe", "pipe"] });
    const found: string[] = [];
    let stderr = "";
    const onAbort = () => child.kill();
    signal?.addEventListener("abort", onAbort, { once: true });

    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = nodeReadline().createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const path = line.replace(/\r$/, "");
      if (path === "") return;
      const isDir = path.endsWith("/");
      const rel = relative(searchPath, path).split(sep).join("/");
      found.push(isDir ? `${rel}/` : rel);
    });
    child.once("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new Error(`Failed to run fd: ${error.message}`));
    });
    child.once("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      lines.close();
      if (signal?.aborted) return reject(new Error("Operation aborted"));
      if (code !== 0 && found.length === 0) return reject(searchFailure("fd", stderr, code));
      resolve(found.sort(comparePaths));
    });
  });
}
