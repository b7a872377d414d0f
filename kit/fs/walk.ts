/**
 * A directory walk that skips what rg and fd skip: paths ignored by .gitignore files (the search root's,
 * nested ones, and those of parent folders up to the enclosing git repository's root), paths excluded by
 * overrides (`--glob` / `--exclude`), and it never follows symlinks. Hidden files are included (pi runs
 * both tools with --hidden). Entries come in the order `rg --sort path` gives: depth-first, names in
 * byte order, each folder before its contents.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { lastMatch, parseIgnoreFile, type IgnoreRule } from "./ignore-rules.js";

/** One path the walk found. */
export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Relative to the walk's root, "/"-separated. */
  relative: string;
  name: string;
  kind: "file" | "dir" | "symlink" | "other";
}

/** What to walk and what to leave out. */
export interface WalkOptions {
  root: string;
  /**
   * Override globs in rg's sense: a plain glob includes a path (and, when any plain glob is given,
   * files matching none are left out); a "!"-glob excludes. Overrides beat .gitignore.
   */
  overrides: readonly IgnoreRule[];
  signal?: AbortSignal;
}

/** The rules of one .gitignore file and the folder they are relative to. */
interface IgnoreLayer {
  base: string;
  rules: IgnoreRule[];
}

/** Walks `options.root`, yielding every entry that is not ignored. */
export async function* walk(options: WalkOptions): AsyncGenerator<WalkEntry> {
  const whitelists = options.overrides.filter((rule) => !rule.negated).length;
  const excluded = (entry: WalkEntry, layers: IgnoreLayer[]): boolean => {
    const isDir = entry.kind === "dir";
    const override = lastMatch(options.overrides, entry.relative, isDir);
    if (override !== undefined) return override.negated;
    if (whitelists > 0 && !isDir) return true;
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = layers[i]!;
      const decided = lastMatch(layer.rules, relative(layer.base, entry.path).split(sep).join("/"), isDir);
      if (decided !== undefined) return !decided.negated;
    }
    return false;
  };

  async function* visit(dir: string, dirRelative: string, inherited: IgnoreLayer[]): AsyncGenerator<WalkEntry> {
    if (options.signal?.aborted) throw new Error("Operation aborted");
    const own = await readIgnoreFile(dir);
    const layers = own.length > 0 ? [...inherited, { base: dir, rules: own }] : inherited;
    let names;
    try {
      names = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folders are skipped, as rg and fd skip them
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of names) {
      const entry: WalkEntry = {
        path: join(dir, dirent.name),
        relative: dirRelative === "" ? dirent.name : `${dirRelative}/${dirent.name}`,
        name: dirent.name,
        kind: dirent.isDirectory() ? "dir" : dirent.isFile() ? "file" : dirent.isSymbolicLink() ? "symlink" : "other",
      };
      if (excluded(entry, layers)) continue;
      yield entry;
      if (entry.kind === "dir") yield* visit(entry.path, entry.relative, layers);
    }
  }

  yield* visit(options.root, "", await parentLayers(options.root));
}

/** Whether `dir` or one of its parents is the root of a git working tree. */
export function insideGitRepository(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, ".git"))) return true;
    if (dirname(current) === current) return false;
  }
}

/** .gitignore files of the root's parents, farthest first, up to the enclosing repository's root. */
async function parentLayers(root: string): Promise<IgnoreLayer[]> {
  const layers: IgnoreLayer[] = [];
  if (existsSync(join(root, ".git"))) return layers;
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    const rules = await readIgnoreFile(dir);
    if (rules.length > 0) layers.unshift({ base: dir, rules });
    if (existsSync(join(dir, ".git")) || dirname(dir) === dir) return layers;
  }
}

async function readIgnoreFile(dir: string): Promise<IgnoreRule[]> {
  try {
    const path = join(dir, ".gitignore");
    // Only a regular file is read: a .gitignore that is a FIFO or a device would block or never end.
    if (!(await stat(path)).isFile()) return [];
    return parseIgnoreFile(await readFile(path, "utf8"));
  } catch {
    return [];
  }
}
