/**
 * `pi plugin eject <id> [-l]`: turns a built-in plugin into the user's own. The plugin's TypeScript
 * source (shipped in the package next to the compiled dist/) is copied into the agent folder's
 * `plugins/<id>/` (with -l, the project's `.pi/plugins/<id>/`) unchanged — built-ins import the kernel,
 * contracts and kit only as "pi-host", as every plugin does — and the user's (or project's) plugins.json
 * gets `{ id, use: "./plugins/<id>" }`
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
}

/** What an eject did, for the command's report. */
export interface EjectOutcome {
  /** The built-in whose source was copied. */
  builtin: string;
  /** The folder the copy lives in. */
  dest: string;
  /** The files written, relative to `dest`. */
  files: string[];
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
  const inputs = {
    cwd: request.cwd,
    agentDir: request.agentDir,
    defaultFile: request.defaultFile,
    builtinDir: request.builtinDir,
  };
  const builtins = builtinNames(request.builtinDir);
  const entry = (await resolveDistribution(inputs)).entries.find((e) => e.id === request.id);
  let builtin: string;
  if (entry !== undefined) {
    if (!builtins.includes(entry.use)) {
      throw new UsageError(
        `plugin "${request.id}" already runs from ${describeUse(entry.use, entry.useFrom)}, not a built-in; edit it there`,
      );
    }
    builtin = entry.use;
  } else if (builtins.includes(request.id)) {
    builtin = request.id;
  } else {
    throw new UsageError(
      `no plugin "${request.id}" in the distribution and no built-in of that name; see "pi plugins" (built-ins: ${builtins.join(", ")})`,
    );
  }

  const sourceDir = builtinSourceDir(request.packageRoot, builtin);
  if (sourceDir === undefined) {
    throw new UsageError(
      `this pi-host has no source for the built-in "${builtin}" (plugins/<kind>/${builtin}/index.ts); reinstall a pi-host that ships plugins/`,
    );
  }
  const folder = request.id.replace(/[^A-Za-z0-9._-]/g, "-");
  const dest = join(base, "plugins", folder);
  if (existsSync(dest))
    throw new UsageError(`${dest} already exists; edit that copy, or remove it to eject "${request.id}" again`);

  const files = sourceFiles(sourceDir);
  const packages = importedPackages(sourceDir, files);
  const dependencies = packages.length > 0 ? dependencyFolder(request.packageRoot, packages) : undefined;

  // Checked before anything is written: a plugins.json we cannot update stops the eject here.
  const distributionFile = join(base, "plugins.json");
  const use = `./plugins/${folder}`;
  const distributionText = await withEntry(distributionFile, request.id, use);

  await mkdir(dirname(dest), { recursive: true });
  const stage = await mkdtemp(join(dirname(dest), `.${folder}.eject-`));
  try {
    for (const file of files) {
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
  notices.push(
    ...(dependencies?.missing.map(
      (name) => `the copy imports "${name}", which this pi-host cannot resolve; install it next to the copy`,
    ) ?? []),
  );
  const after = await resolveDistribution(inputs);
  notices.push(...after.notices);
  const now = after.entries.find((e) => e.id === request.id);
  if (now !== undefined && resolve(dirname(now.useFrom), expandHome(now.use)) !== dest) {
    notices.push(
      `"${request.id}" still runs from ${describeUse(now.use, now.useFrom)}, set by a later layer; point that entry at ${dest}`,
    );
  } else if (now !== undefined && !now.enabled) {
    notices.push(`"${request.id}" is disabled in the distribution; set "enabled": true to run the copy`);
  }
  return {
    builtin,
    dest,
    files,
    dependencies: dependencies?.dir,
    distributionFile,
    use,
    notices,
  };
}

function describeUse(use: string, from: string): string {
  return `${use} (set in ${from})`;
}

/** Where a built-in's source lives in the package: `plugins/<kind>/<name>/`. */
function builtinSourceDir(packageRoot: string, builtin: string): string | undefined {
  const plugins = join(packageRoot, "plugins");
  if (!existsSync(plugins)) return undefined;
  const kinds = readdirSync(plugins, { withFileTypes: true }).filter((d) => d.isDirectory());
  return kinds.map((kind) => join(plugins, kind.name, builtin)).find((dir) => existsSync(join(dir, "index.ts")));
}

/** A plugin folder's files (relative paths, sorted), leaving out dot files and node_modules. */
function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name));
    if (path.split(/[\\/]/).some((part) => part.startsWith(".") || part === "node_modules")) continue;
    files.push(path);
  }
  return files.sort();
}

/** Bare module specifiers in import/export/import() statements. */
const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'./][^"']*)["']/g;

/** The npm packages a plugin's sources import at run time (not node: built-ins, not what the host hands it). */
function importedPackages(dir: string, files: string[]): string[] {
  const packages = new Set<string>();
  for (const file of files.filter((f) => /\.(?:[cm]?ts|[cm]?js)$/.test(f))) {
    for (const match of readFileSync(join(dir, file), "utf8").matchAll(IMPORT_SPECIFIER)) {
      const specifier = match[1]!;
      if (specifier.startsWith("node:") || HOST_PROVIDED_MODULES.has(specifier)) continue;
      const parts = specifier.split("/");
      packages.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
    }
  }
  return [...packages].sort();
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
  const list: Array<Record<string, unknown>> = Array.isArray(data)
    ? data
    : (((data as Record<string, unknown>).plugins ??= []) as Array<Record<string, unknown>>);
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
