/**
 * The few file operations the settings store needs, behind an interface so a test can count reads and
 * prove that an unchanged file is not read twice. The stamp (modification time in nanoseconds, size and
 * inode) changes whenever the file's content can have changed, atomic replacements included.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname } from "node:path";

/** File operations used by the settings store. */
export interface SettingsFileAccess {
  /** The file's change stamp, or undefined when it does not exist. */
  stamp(path: string): Promise<string | undefined>;
  readText(path: string): Promise<string>;
  /** Replaces the file's content atomically (temp file in the same folder, then rename). */
  writeAtomically(path: string, text: string): Promise<void>;
  /** Creates `path` as a lock folder; false when it already exists. */
  tryLock(path: string): Promise<boolean>;
  /** The lock folder's age in milliseconds, or undefined when it is gone. */
  lockAgeMs(path: string): Promise<number | undefined>;
  unlock(path: string): Promise<void>;
}

/** The real file system. */
export const nodeSettingsFileAccess: SettingsFileAccess = {
  async stamp(path) {
    try {
      const s = await stat(path, { bigint: true });
      return `${s.mtimeNs}:${s.size}:${s.ino}`;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
  readText: (path) => readFile(path, "utf8"),
  async writeAtomically(path, text) {
    await mkdir(dirname(path), { recursive: true });
    const mode = await stat(path).then(
      (s) => s.mode & 0o777,
      () => 0o644,
    );
    const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const handle = await open(temp, "wx", mode);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
      await handle.close();
      await rename(temp, path);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
  },
  async tryLock(path) {
    await mkdir(dirname(path), { recursive: true });
    try {
      await mkdir(path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  },
  async lockAgeMs(path) {
    try {
      return Date.now() - (await stat(path)).mtimeMs;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
  async unlock(path) {
    await rmdir(path).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
  },
};

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}
