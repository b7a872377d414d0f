/**
 * Which files make up a file plugin's source: the host's policy, handed to the kernel as `hashSource`
 * and used by the watcher. An `index.*` entry owns its whole folder; the hash covers every source file
 * under the plugin's root, so an edit anywhere in it is a change and an unchanged save is not.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";

/** The file extensions that count as plugin source for hashing and watching. */
export const SOURCE_EXTENSIONS = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"];

/**
 * The folder or file a plugin's source lives in: an `index.*` entry owns its whole folder, any other
 * entry file only itself.
 */
export function sourceRoot(path: string): { dir: string; file: string | undefined } {
  return /^index\.[cm]?[jt]s$/.test(basename(path))
    ? { dir: dirname(path), file: undefined }
    : { dir: dirname(path), file: path };
}

/**
 * Whether a changed path belongs to a plugin's source (ignores dot-files, editor backups, node_modules).
 * `root` is the plugin's folder: only a node_modules below it counts, since an npm package plugin
 * itself lives in `npm/node_modules/<name>` (pi's layout).
 */
export function isSourceFile(path: string, root?: string): boolean {
  const name = basename(path);
  const inside = root !== undefined && path.startsWith(root + sep) ? path.slice(root.length + 1) : path;
  if (name.startsWith(".") || name.endsWith("~") || inside.split(/[\\/]/).includes("node_modules")) return false;
  return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/** A content hash of a plugin's source: every source file under its root, by relative path. */
export async function hashSource(entry: string): Promise<string> {
  const root = sourceRoot(entry);
  const files = root.file !== undefined ? [root.file] : await listSourceFiles(root.dir, root.dir);
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    hash.update(relative(root.dir, file));
    hash.update("\0");
    hash.update(await readFile(file).catch(() => Buffer.from("<missing>")));
    hash.update("\0");
  }
  return hash.digest("hex");
}

async function listSourceFiles(dir: string, root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".") && entry.name !== "node_modules")
        out.push(...(await listSourceFiles(path, root)));
    } else if (isSourceFile(path, root)) {
      out.push(path);
    }
  }
  return out;
}
