/**
 * Every file the resources plugin reads goes through here: a file's text is kept with its change stamp
 * (modification time in nanoseconds, size, inode) and a folder's listing with the folder's stamp, so a
 * turn that asks for the prompt again only stats paths and re-reads nothing that did not change. The
 * file operations sit behind an interface so a test can count reads.
 */
import { readdir, readFile, stat } from "node:fs/promises";

/** What a path is, with a stamp that changes when its content can have changed. */
export interface PathInfo {
  kind: "file" | "dir" | "other";
  stamp: string;
  /** Device and inode: the same for every path (link) that leads to one file. */
  identity: string;
}

/** The file operations the plugin uses. `stat` follows symbolic links. */
export interface FileAccess {
  /** undefined when nothing (or a broken link) is there. */
  stat(path: string): Promise<PathInfo | undefined>;
  readText(path: string): Promise<string>;
  /** The names in a folder. */
  readDir(path: string): Promise<string[]>;
}

/** The real file system. */
export const nodeFileAccess: FileAccess = {
  async stat(path) {
    try {
      const s = await stat(path, { bigint: true });
      const kind = s.isFile() ? "file" : s.isDirectory() ? "dir" : "other";
      return { kind, stamp: `${s.mtimeNs}:${s.size}:${s.ino}`, identity: `${s.dev}:${s.ino}` };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return undefined;
      throw error;
    }
  },
  readText: (path) => readFile(path, "utf8"),
  readDir: (path) => readdir(path),
};

/** Stat-checked cache of file texts and folder listings. */
export class FileCache {
  private readonly texts = new Map<string, { stamp: string; text: string }>();
  private readonly listings = new Map<string, { stamp: string; names: string[] }>();

  constructor(private readonly fs: FileAccess = nodeFileAccess) {}

  /** What is at `path`, if anything. */
  info(path: string): Promise<PathInfo | undefined> {
    return this.fs.stat(path);
  }

  /** The text of the file at `path`, or undefined when no file is there. Read errors are thrown. */
  async text(path: string): Promise<string | undefined> {
    const info = await this.fs.stat(path);
    if (info?.kind !== "file") {
      this.texts.delete(path);
      return undefined;
    }
    const cached = this.texts.get(path);
    if (cached?.stamp === info.stamp) return cached.text;
    const text = await this.fs.readText(path);
    this.texts.set(path, { stamp: info.stamp, text });
    return text;
  }

  /** The sorted names in the folder at `path`, or undefined when no folder is there. */
  async list(path: string): Promise<string[] | undefined> {
    const info = await this.fs.stat(path);
    if (info?.kind !== "dir") {
      this.listings.delete(path);
      return undefined;
    }
    const cached = this.listings.get(path);
    if (cached?.stamp === info.stamp) return cached.names;
    const names = (await this.fs.readDir(path)).sort();
    this.listings.set(path, { stamp: info.stamp, names });
    return names;
  }
}
