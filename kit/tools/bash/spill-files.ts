/**
 * The temp files that hold bash's full output. Each is named `<prefix>-<pid>-<random>.log` so its
 * owner is known: this process deletes its own files when it exits, deletes stale ones left by dead
 * processes (killed, crashed) the first time it spills, and keeps only its newest files while it runs —
 * the one the last result points to stays readable for the model. Without this they piled up in the
 * temp folder (hundreds of MB). One registry per process, shared by every generation of the plugin, so
 * hot reloads neither add exit listeners nor forget files.
 */
import { readdirSync, unlinkSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How many of this process's full-output files are kept while it runs (newest first). */
export const KEEP_NEWEST_SPILL_FILES = 20;

/** The file name pattern; group 1 is the owner's pid. */
const SPILL_NAME = /^pi-bash-(\d+)-[0-9a-f]{16}\.log$/;

/** Whether a process with this pid exists (EPERM means it exists but belongs to another user). */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The full-output files of one process in one folder. */
export class SpillFiles {
  private readonly owned: string[] = [];
  private swept = false;

  constructor(
    private readonly folder: () => string = tmpdir,
    private readonly keepNewest = KEEP_NEWEST_SPILL_FILES,
    private readonly isAlive: (pid: number) => boolean = processIsAlive,
  ) {}

  /** A new file path for full output; sweeps stale files once and drops this process's oldest beyond the limit. */
  newPath(): string {
    const folder = this.folder();
    if (!this.swept) {
      this.swept = true;
      this.sweepStale(folder);
    }
    const path = join(folder, `pi-bash-${process.pid}-${randomBytes(8).toString("hex")}.log`);
    this.owned.push(path);
    while (this.owned.length > this.keepNewest) removeQuietly(this.owned.shift()!);
    return path;
  }

  /** Deletes every file this process created (at exit). */
  removeAll(): void {
    for (const path of this.owned.splice(0)) removeQuietly(path);
  }

  /** Deletes full-output files whose owning process no longer runs. */
  sweepStale(folder = this.folder()): void {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const owner = SPILL_NAME.exec(name)?.[1];
      if (owner === undefined || Number(owner) === process.pid || this.isAlive(Number(owner))) continue;
      removeQuietly(join(folder, name));
    }
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

const REGISTRY = Symbol.for("pi-host.tool-bash.spill-files");

/** This process's registry; created (and its exit cleanup registered) on first use. */
export function processSpillFiles(): SpillFiles {
  const holder = globalThis as { [REGISTRY]?: SpillFiles };
  let files = holder[REGISTRY];
  if (files === undefined) {
    const created = new SpillFiles();
    holder[REGISTRY] = files = created;
    process.once("exit", () => created.removeAll());
  }
  return files;
}
