/**
 * `pi plugin eject <id> [-l]`: turns a built-in plugin into the user's own. The plugin's TypeScript
 * source (shipped in the package next to the compiled dist/) is copied into the agent folder's
 * `plugins/<id>/` (with -l, the project's `.pi/plugins/<id>/`), its imports of the kernel and contracts
 * are rewritten to "pi-host", and the user's (or project's) plugins.json gets `{ id, use: "./plugins/<id>" }`
 * so the next run — and a running `pi --watch` — uses the copy. Nothing is half-written: the copy is
 * staged next to its final folder and renamed into place, and the plugins.json is replaced whole.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { UsageError } from "./cli-flags.js";
import { builtinNames, resolveDistribution } from "./compose.js";
import { parseDistribution } from "./distribution.js";
import { rewritePlugin, type RewriteHost, type RewrittenPlugin } from "./eject-imports.js";
import { expandHome, projectDir } from "./paths.js";

/** Bare specifiers the host hands source-loaded plugins itself (hosts/compose.ts `composeKernel`). */
export const HOST_PROVIDED_MODULES: ReadonlySet<string> = new Set(["pi-host", "@sinclair/typebox", "tsyringe"]);

/** What an eject needs to know: which plugin, which scope, and where the package and the user's files are. */
export interface EjectRequest {
  id: string;
  /** Eject into the project (`.pi/`) instead of the agent folder. */
  local: boolean;
  agentDir: string;
  cwd: string;
  /** The installed package's root, holding `plugins/`, `contracts/` and `kernel/` sources. */
  packageRoot: string;
  /** The package's default plugins.json. */
  defaultFile: string;
  /** The compiled built-ins, `<name>/index.js`: what counts as a built-in name. */
  builtinDir: string;
  /** The names the "pi-host" module exports at run time. */
  hostExports: ReadonlySet<string>;
}

/** What an eject did, for the command's report. */
export interface EjectOutcome {
  /** The built-in whose source was copied. */
  builtin: string;
  /** The folder the copy lives in. */
  dest: string;
  /** The files written, relative to `dest`. */
  files: string[];
  /** Contract modules copied along because "pi-host" does not export them (package-relative paths). */
  vendored: string[];
  /** Where the copy's npm imports resolve (a `node_modules` link in the copy), if it has any. */
  dependencies: string | undefined;
  /** The plugins.json that now points at the copy, and the `use` it holds. */
  distributionFile: string;
  use: string;
  /** Things the user should know: a later layer overriding the copy, an untrusted project, ... */
  notices: string[];
}

/** Copies a built-in's source out and points the distribution at it. Throws UsageError on bad input. */
export async function ejectPlugin(request: EjectRequest): Promise<EjectOutcome> {
  const base = request.local ? projectDir(request.cwd) : request.agentDir;
  const inputs = { cwd: request.cwd, agentDir: request.agentDir, defaultFile: request.defaultFile, builtinDir: request.builtinDir };
  const builtins = builtinNames(request.builtinDir);
  const entry = (await resolveDistribution(inputs)).entries.find((e) => e.id === request.id);
  let builtin: string;
  if (entry !== undefined) {
    if (!builtins.includes(entry.use)) {
      throw new UsageError(`plugin "${request.id}" already runs from ${describeUse(entry.use, entry.useFrom)}, not a built-in; edit it there`);
    }
    builtin = entry.use;
  } else if (builtins.includes(request.id)) {
    builtin = request.id;
  } else {
    throw new UsageError(`no plugin "${request.id}" in the distribution and no built-in of that name; see "pi plugins" (built-ins: ${builtins.join(", ")})`);
  }

  const sourceDir = join(request.packageRoot, "plugins", builtin);
  if (!existsSync(join(sourceDir, "index.ts"))) {
    throw new UsageError(`this pi-host has no source for the built-in "${builtin}" (${join(sourceDir, "index.ts")}); reinstall a pi-host that ships plugins/`);
  }
  const folder = request.id.replace(/[^A-Za-z0-9._-]/g, "-");
  const dest = join(base, "plugins", folder);
  if (existsSync(dest)) throw new UsageError(`${dest} already exists; edit that copy, or remove it to eject "${request.id}" again`);

  const host: RewriteHost = { packageRoot: request.packageRoot, hostExports: request.hostExports, hostProvided: HOST_PROVIDED_MODULES };
  const sources = readSources(sourceDir);
  let rewritten: RewrittenPlugin;
  try {
    rewritten = rewritePlugin(sourceDir, sources.text, host);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const dependencies = rewritten.packages.length > 0 ? dependencyFolder(request.packageRoot, rewritten.packages) : undefined;

  // Checked before anything is written: a plugins.json we cannot update stops the eject here.
  const distributionFile = join(base, "plugins.json");
  const use = `./plugins/${folder}`;
  const distributionText = await withEntry(distributionFile, request.id, use);

  await mkdir(dirname(dest), { recursive: true });
  const stage = await mkdtemp(join(dirname(dest), `.${folder}.eject-`));
  try {
    for (const file of rewritten.files) {
      await mkdir(dirname(join(stage, file.path)), { recursive: true });
      await writeFile(join(stage, file.path), file.text);
    }
    for (const file of sources.other) {
      await mkdir(dirname(join(stage, file)), { recursive: true });
      await cp(join(sourceDir, file), join(stage, file));
    }
    // The copy's npm imports (an SDK, TypeBox's `value` module) resolve where the host's own do.
    if (dependencies?.dir !== undefined) await symlink(dependencies.dir, join(stage, "node_modules"), "junction");
    await rename(stage, dest);
  } catch (error) {
    await rm(stage, { recursive: true, force: true });
    throw error;
  }
  try {
    await writeWhole(distributionFile, distributionText);
  } catch (error) {
    await rm(dest, { recursive: true, force: true });
    throw error;
  }

  const notices: string[] = [];
  if (entry === undefined) notices.push(`"${request.id}" was not in the distribution; it now runs, from the copy`);
  notices.push(...(dependencies?.missing.map((name) => `the copy imports "${name}", which this pi-host cannot resolve; install it next to the copy`) ?? []));
  const after = await resolveDistribution(inputs);
  notices.push(...after.notices);
  const now = after.entries.find((e) => e.id === request.id);
  if (now !== undefined && resolve(dirname(now.useFrom), expandHome(now.use)) !== dest) {
    notices.push(`"${request.id}" still runs from ${describeUse(now.use, now.useFrom)}, set by a later layer; point that entry at ${dest}`);
  } else if (now !== undefined && !now.enabled) {
    notices.push(`"${request.id}" is disabled in the distribution; set "enabled": true to run the copy`);
  }
  return {
    builtin,
    dest,
    files: [...rewritten.files.map((f) => f.path), ...sources.other].sort(),
    vendored: rewritten.vendored,
    dependencies: dependencies?.dir,
    distributionFile,
    use,
    notices,
  };
}

function describeUse(use: string, from: string): string {
  return `${use} (set in ${from})`;
}

/** A plugin folder's files: source text to rewrite, and other files (by relative path) to copy as they are. */
function readSources(dir: string): { text: Map<string, string>; other: string[] } {
  const text = new Map<string, string>();
  const other: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name));
    if (path.split(/[\\/]/).some((part) => part.startsWith(".") || part === "node_modules")) continue;
    if (/\.(?:[cm]?ts|[cm]?js)$/.test(entry.name)) text.set(path, readFileSync(join(dir, path), "utf8"));
    else other.push(path);
  }
  return { text, other };
}

/**
 * The node_modules folder where the host's own dependencies are installed (inside the package for a
 * global install, a project's node_modules when hoisted): the nearest one on Node's lookup path from the
 * package root that holds every package the copy imports. Packages found nowhere are listed as missing.
 */
function dependencyFolder(packageRoot: string, packages: string[]): { dir: string | undefined; missing: string[] } {
  const candidates = createRequire(join(packageRoot, "package.json")).resolve.paths("x") ?? [];
  const holds = (dir: string, name: string): boolean => existsSync(join(dir, name));
  const complete = candidates.find((dir) => packages.every((name) => holds(dir, name)));
  if (complete !== undefined) return { dir: complete, missing: [] };
  const partial = candidates.find((dir) => packages.some((name) => holds(dir, name)));
  return { dir: partial, missing: packages.filter((name) => partial === undefined || !holds(partial, name)) };
}

/**
 * The text of a plugins.json whose entry `id` has `use` set, the entry (or the file) added when missing,
 * and everything else kept — the entry's config and enabled flag, other entries, the file's form.
 * Throws DistributionError when the file exists but is not a valid plugins.json.
 */
async function withEntry(file: string, id: string, use: string): Promise<string> {
  let data: unknown = { plugins: [] };
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (text !== undefined) {
    parseDistribution(file, text);
    data = JSON.parse(text) as unknown;
  }
  const list: Array<Record<string, unknown>> = Array.isArray(data) ? data : (((data as Record<string, unknown>).plugins ??= []) as Array<Record<string, unknown>>);
  const existing = list.find((e) => e.id === id);
  if (existing !== undefined) existing.use = use;
  else list.push({ id, use });
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Replaces a file in one step (write a temporary file beside it, then rename). */
async function writeWhole(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  await writeFile(temp, text);
  await rename(temp, file);
}
