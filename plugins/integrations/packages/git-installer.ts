/**
 * Fetches a git package into a staging folder: clone, check out the ref the source pins (a missing ref
 * fails with a line naming it), then `npm install` when its package.json has dependencies — as pi does,
 * and inside the staging folder, so a failed dependency install changes nothing.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GitSource } from "pi-host";
import type { NpmRunner } from "./npm-installer.js";
import { runCommand, type Spawner } from "./run-command.js";

/** A staged clone and the commit it is at. */
export interface StagedGitPackage {
  dir: string;
  commit: string;
}

/** Runs git for the package manager. */
export class GitRunner {
  constructor(private readonly spawn: Spawner) {}

  /** Clones `source.repo` into `dir` at `source.ref` (or the default branch), then installs its dependencies. */
  async stage(
    source: GitSource,
    dir: string,
    npm: NpmRunner,
    progress: (line: string) => void,
    signal?: AbortSignal,
  ): Promise<StagedGitPackage> {
    progress(`cloning ${source.repo}${source.ref !== undefined ? ` at ${source.ref}` : ""}`);
    await runCommand(this.spawn, "git", ["clone", "--quiet", source.repo, dir], {
      signal,
      label: `git clone ${source.repo}`,
    });
    if (source.ref !== undefined) {
      try {
        await runCommand(this.spawn, "git", ["checkout", "--quiet", source.ref], { cwd: dir, signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new Error(
          `git ref "${source.ref}" does not exist in ${source.repo}; give a branch, tag or commit it has`,
        );
      }
    }
    if (await hasDependencies(dir)) {
      progress("installing its dependencies with npm");
      await npm.installDependencies(dir, signal);
    }
    return { dir, commit: await this.commitOf(dir, signal) };
  }

  /** The commit checked out in `dir`. */
  async commitOf(dir: string, signal?: AbortSignal): Promise<string> {
    return (await runCommand(this.spawn, "git", ["rev-parse", "HEAD"], { cwd: dir, signal })).stdout.trim();
  }

  /** The commit the remote's default branch points at. */
  async remoteHead(repo: string, signal?: AbortSignal): Promise<string> {
    const { stdout } = await runCommand(this.spawn, "git", ["ls-remote", repo, "HEAD"], { signal });
    const commit = stdout.split(/\s+/)[0] ?? "";
    if (!/^[0-9a-f]{40,64}$/.test(commit))
      throw new Error(`git ls-remote ${repo} named no HEAD commit; does the repository have a default branch?`);
    return commit;
  }
}

/** Whether the package.json in `dir` lists any dependencies to install. */
async function hasDependencies(dir: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(join(dir, "package.json"), "utf8");
  } catch {
    return false;
  }
  let data: { dependencies?: unknown };
  try {
    data = JSON.parse(text) as { dependencies?: unknown };
  } catch (error) {
    throw new Error(`${join(dir, "package.json")} is not valid JSON (${(error as Error).message})`);
  }
  return (
    data.dependencies !== null && typeof data.dependencies === "object" && Object.keys(data.dependencies).length > 0
  );
}
