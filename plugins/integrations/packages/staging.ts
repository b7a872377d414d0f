/**
 * Atomic installs. Everything a package operation builds goes into one staging folder beside the install
 * folders (same file system, so moves are renames). Only when the staged package is complete is it moved
 * into place, the previous version moved aside into the staging folder, and the settings written; if that
 * last step fails the moves are undone. Either way the staging folder, and any folder this operation
 * created on the way, is removed — so a failed operation leaves the install folders as they were.
 *
 * A process killed outright cannot clean up, so each staging folder is named after the pid that owns
 * it, and opening a new one first removes the leftovers: folders whose owner is no longer running, or
 * that are older than STALE_STAGING_MS whatever their owner (a reused pid).
 */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

/** One operation's scratch space under a scope's base folder. */
export class Staging {
  /** Folders this operation created (outermost first), removed again if they end up holding nothing of ours. */
  private readonly created: string[] = [];

  private constructor(
    /** The scope's base folder (agent folder or `<cwd>/.pi`). */
    readonly baseDir: string,
    /** `<baseDir>/.pi-staging-<random>`. */
    readonly dir: string,
  ) {}

  /** Creates the staging folder (and the base folder, if it did not exist yet), after removing stale ones. */
  static async open(baseDir: string): Promise<Staging> {
    const createdBase = await mkdir(baseDir, { recursive: true });
    await removeStaleStaging(baseDir);
    const staging = new Staging(
      baseDir,
      join(baseDir, `${STAGING_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`),
    );
    if (createdBase !== undefined) staging.created.push(createdBase);
    await mkdir(staging.dir);
    return staging;
  }

  /** A path inside the staging folder. */
  path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  /**
   * Moves `staged` to `target`, moving what was at `target` aside first, then runs `commit` (the
   * settings write). If `commit` throws, `target` gets its old content back and the error is rethrown.
   */
  async place(staged: string, target: string, commit: () => Promise<void>): Promise<void> {
    await this.ensureParent(target);
    const previous = this.path("previous");
    const hadPrevious = await exists(target);
    if (hadPrevious) await rename(target, previous);
    try {
      await rename(staged, target);
    } catch (error) {
      if (hadPrevious) await rename(previous, target);
      throw error;
    }
    try {
      await commit();
    } catch (error) {
      await rename(target, staged);
      if (hadPrevious) await rename(previous, target);
      throw error;
    }
  }

  /** Moves `target` into the staging folder, runs `commit`, and puts it back if `commit` throws. */
  async takeAway(target: string, commit: () => Promise<void>): Promise<void> {
    const removed = this.path("removed");
    const had = await exists(target);
    if (had) await rename(target, removed);
    try {
      await commit();
    } catch (error) {
      if (had) await rename(removed, target);
      throw error;
    }
    if (had) await pruneEmptyParents(dirname(target), this.baseDir);
  }

  /** Removes the staging folder and every folder this operation created that is now empty. */
  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    for (const dir of [...this.created].reverse()) await removeIfEmpty(dir);
  }

  /** Creates the target's parent folders, remembering the first one created. */
  private async ensureParent(target: string): Promise<void> {
    const created = await mkdir(dirname(target), { recursive: true });
    if (created !== undefined) this.created.push(created);
  }
}

/** Every staging folder's name starts with this, then `<pid>-<random>`. */
export const STAGING_PREFIX = ".pi-staging-";

/** A staging folder this old is a leftover even if a process with its owner's pid runs (installs take minutes). */
export const STALE_STAGING_MS = 60 * 60 * 1000;

/**
 * Removes the staging folders under `baseDir` that no running operation owns: the owner pid is dead, or
 * the folder is older than STALE_STAGING_MS (also the only test for a name without a pid). Never throws; a
 * folder that cannot be removed now is tried again next time. Resolves with the names removed.
 */
export async function removeStaleStaging(baseDir: string, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(baseDir)).filter((name) => name.startsWith(STAGING_PREFIX));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(baseDir, name);
    const pid = Number(/^(\d+)-/.exec(name.slice(STAGING_PREFIX.length))?.[1] ?? Number.NaN);
    const age = await stat(path).then(
      (info) => now - info.mtimeMs,
      () => undefined,
    );
    if (age === undefined) continue;
    const ours = pid === process.pid;
    const abandoned = age > STALE_STAGING_MS || (Number.isInteger(pid) && !isRunning(pid));
    if (ours || !abandoned) continue;
    try {
      await rm(path, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // next time
    }
  }
  return removed;
}

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
function isRunning(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the empty folders from `dir` up to (not including) `stopAt`'s first-level folders (npm/, git/). */
async function pruneEmptyParents(dir: string, stopAt: string): Promise<void> {
  let current = dir;
  while (relative(stopAt, current).split(sep).length > 1 && current.startsWith(stopAt + sep)) {
    if (!(await removeIfEmpty(current))) return;
    current = dirname(current);
  }
}

/** Removes a folder, and any empty folders inside it, when it holds no file; true when it is gone. */
async function removeIfEmpty(dir: string): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return true;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (!(await stat(path)).isDirectory() || !(await removeIfEmpty(path))) return false;
  }
  await rmdir(dir);
  return true;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
