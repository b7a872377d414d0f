/**
 * pi 1.6's resource filters of a `packages` settings entry in object form
 * (`{ "source": "npm:x", "extensions": [...], "skills": [...], "prompts": [...], "themes": [...], "autoload": false }`):
 * which of a package's resources load. For each type an absent list loads everything the package
 * declares, `[]` loads none, plain entries are globs that include, `!glob` excludes, `+path` forces one
 * exact path in and `-path` forces one out (in that order). A project entry with `autoload: false` is a
 * delta over the personal entry of the same package: its entries switch the matched resources on (`+`,
 * plain) or off (`-`, `!`) and leave the rest as the personal entry has them. Filters only narrow: they
 * never reach a file the package does not declare. Paths are relative to the package root.
 *
 * Kept once here because the host (which hands package resources to the loaders) and `pi config`
 * (which lists and switches them) must agree on what loads.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { globToRegExp } from "../fs/glob.js";

/** The resource types a filter narrows, in pi's order. */
export const FILTER_KINDS = ["extensions", "skills", "prompts", "themes"] as const;

/** One of the types a filter narrows. */
export type FilterKind = (typeof FILTER_KINDS)[number];

/** The filter part of a `packages` entry in object form; a type left out is not filtered. */
export interface PackageFilter {
  extensions?: string[];
  skills?: string[];
  prompts?: string[];
  themes?: string[];
  /** `false` on a project entry: a delta over the personal entry instead of a replacement. */
  autoload?: boolean;
}

/** The package's resources of each type, as absolute paths (files or folders). */
export type KindPaths = Record<FilterKind, string[]>;

/** The filter of a settings entry, or undefined for the plain string form (everything loads). */
export function packageFilterOf(entry: unknown): PackageFilter | undefined {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return undefined;
  const record = entry as Record<string, unknown>;
  const filter: PackageFilter = {};
  for (const kind of FILTER_KINDS) {
    const value = record[kind];
    if (Array.isArray(value)) filter[kind] = value.filter((v): v is string => typeof v === "string");
  }
  if (typeof record.autoload === "boolean") filter.autoload = record.autoload;
  return filter;
}

/**
 * The resource files the paths hold, found as pi finds them in a package folder: an extension is a
 * `.ts`/`.js` file or a folder's `index.ts`/`index.js` (or its package.json `pi.extensions`); a skill
 * is a folder's SKILL.md (or a loose `.md` at the top); prompts and themes are the `.md` / `.json` files
 * below. Hidden entries and node_modules are skipped. A path that is a file is itself.
 */
export function resourceFiles(paths: readonly string[], kind: FilterKind): string[] {
  const out: string[] = [];
  for (const path of paths) {
    if (!existsSync(path)) continue;
    if (!statSync(path).isDirectory()) out.push(path);
    else if (kind === "skills") out.push(...skillFiles(path, true));
    else if (kind === "extensions") out.push(...extensionFiles(path));
    else out.push(...filesBelow(path, kind === "prompts" ? ".md" : ".json"));
  }
  return [...new Set(out)];
}

/** The files the filter's entries leave on, from `files` (every file the package declares of the type). */
export function applyFilterPatterns(files: readonly string[], patterns: readonly string[], root: string): string[] {
  const includes = patterns.filter((p) => !"+-!".includes(p[0] ?? ""));
  const excludes = withSign(patterns, "!");
  const forceIn = withSign(patterns, "+");
  const forceOut = withSign(patterns, "-");
  let result = includes.length === 0 ? [...files] : files.filter((f) => matchesGlob(f, includes, root));
  result = result.filter((f) => !matchesGlob(f, excludes, root));
  for (const file of files) if (!result.includes(file) && matchesExact(file, forceIn, root)) result.push(file);
  return result.filter((f) => !matchesExact(f, forceOut, root));
}

/**
 * What a delta's entries (`autoload: false`) say about the files they match: true to load, false not;
 * a file no entry matches is absent (it stays as the personal entry has it). Later entries win.
 */
export function applyDeltaPatterns(
  files: readonly string[],
  patterns: readonly string[],
  root: string,
): Map<string, boolean> {
  const result = new Map<string, boolean>();
  for (const pattern of patterns) {
    const sign = pattern[0] ?? "";
    const signed = "+-!".includes(sign);
    const target = signed ? pattern.slice(1) : pattern;
    const exact = sign === "+" || sign === "-";
    for (const file of files) {
      if (exact ? matchesExact(file, [target], root) : matchesGlob(file, [target], root))
        result.set(file, sign !== "-" && sign !== "!");
    }
  }
  return result;
}

/**
 * The resources that load for a package: for each type the filter names, its declared files narrowed
 * by the filter; a type it leaves out keeps the declared paths as they are (the loaders expand them).
 * With `autoload: false` and no personal entry to be a delta over, only what the entries switch on loads.
 */
export function filterPackagePaths(declared: KindPaths, filter: PackageFilter | undefined, root: string): KindPaths {
  if (filter === undefined) return declared;
  const out = { ...declared };
  for (const kind of FILTER_KINDS) {
    const patterns = filter[kind];
    if (filter.autoload === false) {
      const delta = applyDeltaPatterns(resourceFiles(declared[kind], kind), patterns ?? [], root);
      out[kind] = [...delta].filter(([, on]) => on).map(([file]) => file);
    } else if (patterns !== undefined) {
      out[kind] = patterns.length === 0 ? [] : applyFilterPatterns(resourceFiles(declared[kind], kind), patterns, root);
    }
  }
  return out;
}

/**
 * A project delta (`autoload: false`) over the resources the personal entry loads: each type's files
 * switched by the delta's entries, the others as the personal entry has them.
 */
export function applyDeltaOver(
  personal: KindPaths,
  declared: KindPaths,
  delta: PackageFilter,
  root: string,
): KindPaths {
  const out = { ...personal };
  for (const kind of FILTER_KINDS) {
    const patterns = delta[kind] ?? [];
    if (patterns.length === 0) continue;
    const all = resourceFiles(declared[kind], kind);
    const switched = applyDeltaPatterns(all, patterns, root);
    const on = new Set(resourceFiles(personal[kind], kind));
    for (const [file, enabled] of switched) {
      if (enabled) on.add(file);
      else on.delete(file);
    }
    out[kind] = all.filter((file) => on.has(file));
  }
  return out;
}

/** The entry `pi config` stores for a resource of a package: its path relative to the package root. */
export function packagePattern(root: string, file: string): string {
  return relative(root, file).split("\\").join("/");
}

function withSign(patterns: readonly string[], sign: string): string[] {
  return patterns.filter((p) => p[0] === sign).map((p) => p.slice(1));
}

/** pi's glob match: the path relative to the root, the file name, or the absolute path; a SKILL.md also by its folder. */
function matchesGlob(file: string, patterns: readonly string[], root: string): boolean {
  if (patterns.length === 0) return false;
  const names = candidates(file, root, true);
  return patterns.some((pattern) => {
    const regex = globToRegExp(normalize(pattern));
    return names.some((name) => regex.test(name));
  });
}

/** pi's exact match: the path relative to the root (a leading `./` dropped) or the absolute path; a SKILL.md also by its folder. */
function matchesExact(file: string, patterns: readonly string[], root: string): boolean {
  if (patterns.length === 0) return false;
  const names = candidates(file, root, false);
  return patterns.some((pattern) => names.includes(normalize(pattern)));
}

function candidates(file: string, root: string, withNames: boolean): string[] {
  const rel = (path: string) => relative(root, path).split("\\").join("/");
  const out = [rel(file), resolve(file)];
  if (withNames) out.push(basename(file));
  if (basename(file) === "SKILL.md") {
    const folder = dirname(file);
    out.push(rel(folder), resolve(folder));
    if (withNames) out.push(basename(folder));
  }
  return out;
}

function normalize(pattern: string): string {
  return pattern
    .replace(/^\.[\\/]/, "")
    .split("\\")
    .join("/")
    .replace(/\/+$/, "");
}

function visible(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter(
      (e) => !e.name.startsWith(".") && e.name !== "node_modules",
    );
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function skillFiles(dir: string, top: boolean): string[] {
  const list = visible(dir);
  if (list.some((e) => e.name === "SKILL.md" && !isDir(join(dir, e.name)))) return [join(dir, "SKILL.md")];
  const out: string[] = [];
  for (const entry of list) {
    const path = join(dir, entry.name);
    if (isDir(path)) out.push(...skillFiles(path, false));
    else if (top && entry.name.endsWith(".md")) out.push(path);
  }
  return out;
}

function extensionEntries(dir: string): string[] | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { pi?: { extensions?: unknown } };
    const listed = manifest.pi?.extensions;
    if (Array.isArray(listed)) {
      const found = listed
        .filter((p): p is string => typeof p === "string")
        .map((p) => resolve(dir, p))
        .filter((p) => existsSync(p));
      if (found.length > 0) return found;
    }
  } catch {
    // no package.json, or one that lists no extensions
  }
  for (const index of ["index.ts", "index.js"]) if (existsSync(join(dir, index))) return [join(dir, index)];
  return undefined;
}

function extensionFiles(dir: string): string[] {
  const own = extensionEntries(dir);
  if (own !== undefined) return own;
  const out: string[] = [];
  for (const entry of visible(dir)) {
    const path = join(dir, entry.name);
    if (isDir(path)) out.push(...(extensionEntries(path) ?? []));
    else if (/\.(ts|js)$/.test(entry.name)) out.push(path);
  }
  return out;
}

function filesBelow(dir: string, ending: string): string[] {
  const out: string[] = [];
  for (const entry of visible(dir)) {
    const path = join(dir, entry.name);
    if (isDir(path)) out.push(...filesBelow(path, ending));
    else if (entry.name.endsWith(ending)) out.push(path);
  }
  return out.sort();
}
