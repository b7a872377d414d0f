/**
 * Finding the native search tool. pi downloads rg and fd when they are missing; we use them only when
 * they are on PATH and fall back to the pure-Node search otherwise.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { childProcess } from "../process/node-builtins.js";

/** A native tool and whether it can apply .gitignore outside a git repository. */
export interface NativeTool {
  path: string;
  /** `--no-require-git` exists (ripgrep ≥ 11, fd ≥ 8.7); without it .gitignore applies only inside a repo. */
  noRequireGit: boolean;
}

/** The first of `names` found as an executable on PATH. */
export function findExecutable(names: readonly string[]): string | undefined {
  for (const name of names) {
    for (const dir of (process.env.PATH ?? "").split(delimiter)) {
      if (dir === "") continue;
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** Looks the tool up and asks its --help which flags it has; undefined when it is not installed. */
export async function probeNativeTool(names: readonly string[]): Promise<NativeTool | undefined> {
  const path = findExecutable(names);
  if (path === undefined) return undefined;
  const help = await new Promise<string>((resolve) => {
    childProcess().execFile(path, ["--help"], { maxBuffer: 4 * 1024 * 1024 }, (_error, stdout) =>
      resolve(String(stdout ?? "")),
    );
  });
  return { path, noRequireGit: help.includes("--no-require-git") };
}
