/**
 * Installed packages as a distribution layer. Before any plugin runs, the host reads the `packages`
 * setting (global, then project), finds each package's folder and its package.json `pi` key, and turns
 * what it contributes into distribution entries:
 *   - each `pi.plugins` path becomes an entry whose id is the plugin's own id, so a package plugin with
 *     a built-in's id replaces that built-in;
 *   - a `pi.distribution` plugins.json applies as an overlay of its own;
 *   - skills, prompt templates and pi extensions are handed to plugins through the host environment
 *     (`packages` of `host/environment`), so whichever plugin loads skills or extensions finds them,
 *     whatever its id (extensions load after those of settings and before `-e`).
 * Entries elsewhere whose `use` is `npm:<pkg>` or `git:<url>` resolve to the installed package's plugin.
 * A project's packages apply only in a trusted project (`pi trust`, or `--approve` for one run), like the
 * project's own plugins.json: in pi 1.6 a project's `.pi` configuration loads only after trust.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import {
  packageContributions,
  packageIdentity,
  installedPackagePath,
  parsePackageSource,
  PLUGIN_INDEX_FILES,
  scopeBaseDir,
  settingEntrySource,
} from "../kit/packages/package-source.js";
import type { KindPaths, PackageFilter } from "../kit/packages/package-filter.js";
import type { PackageScope, PackageSource } from "../contracts/packages.js";
import type { HostPackageContributions } from "../contracts/host-environment.js";
import { DistributionError, readDistribution, type DistributionLayer, type MergedEntry } from "./distribution.js";
import { isTrusted } from "./trust.js";

/** A plugin a package brings: its id (from its definition) and its entry file. */
export interface PackagePlugin {
  id: string;
  file: string;
}

/** One installed package as the distribution uses it. */
export interface DistributionPackage {
  source: string;
  scope: PackageScope;
  /** What makes two sources the same package (npm name, repository, path). */
  identity: string;
  root: string;
  plugins: PackagePlugin[];
  skills: string[];
  prompts: string[];
  /** Theme files or folders (pi's `themes`); JSON only, so they apply whether or not code may run. */
  themes: string[];
  /** pi extension files or folders; empty when the package's code does not run. */
  extensions: string[];
  distribution: string | undefined;
  /** The entry's resource filter (pi's object form), when it has one; the lists above are already narrowed by it. */
  filter?: PackageFilter;
  /** What the package declares of each type before the filter (for `pi config` and project deltas). */
  declared?: KindPaths;
}

/** The layers installed packages add, the packages themselves, what they contribute to plugins, and notices for the user. */
export interface PackageLayers {
  layers: DistributionLayer[];
  packages: DistributionPackage[];
  contributions: HostPackageContributions;
  notices: string[];
}

/** Reads the installed packages and builds their layers (which go on top of the user's distribution). */
export async function installedPackageLayers(input: {
  agentDir: string;
  cwd: string;
  approveProject?: boolean;
  projectTrusted?: boolean;
}): Promise<PackageLayers> {
  const notices: string[] = [];
  const packages = await readInstalledPackages(
    input.agentDir,
    input.cwd,
    notices,
    input.approveProject === true,
    input.projectTrusted,
  );
  const layers: DistributionLayer[] = [];
  for (const pkg of packages) {
    if (pkg.distribution !== undefined) {
      const layer = await readDistribution(pkg.distribution);
      if (layer === undefined)
        throw new DistributionError(
          pkg.distribution,
          undefined,
          undefined,
          `package ${pkg.source} lists this distribution but it is missing; reinstall the package`,
        );
      layers.push(layer);
    }
    if (pkg.plugins.length > 0)
      layers.push({
        file: join(pkg.root, "package.json"),
        extends: "default",
        entries: pkg.plugins.map((p) => ({ id: p.id, use: p.file })),
      });
  }
  return { layers, packages, contributions: packageContributionsOf(packages), notices };
}

/** What the packages hand to plugins through the host environment: skill and template paths, extension paths. */
export function packageContributionsOf(packages: DistributionPackage[]): HostPackageContributions {
  return {
    resources: packages
      .filter((p) => p.skills.length > 0 || p.prompts.length > 0)
      .map((p) => ({ name: p.source, skills: p.skills, prompts: p.prompts })),
    extensions: packages.flatMap((p) => p.extensions),
    themes: packages.flatMap((p) => p.themes),
  };
}

/**
 * Every package of the global then the project `packages` setting that is installed, with what it brings.
 * `approveProject` (`pi --approve`) lets an untrusted project's packages run code for this run.
 * `projectTrusted`, when the host already decided project trust, replaces both: false leaves the
 * project's packages out entirely (the host's own notice says so), true lets them run.
 */
export async function readInstalledPackages(
  agentDir: string,
  cwd: string,
  notices: string[],
  approveProject = false,
  projectTrusted?: boolean,
): Promise<DistributionPackage[]> {
  const out: DistributionPackage[] = [];
  let loadId: PluginIdLoader | undefined;
  for (const scope of ["global", "project"] as const) {
    if (scope === "project" && projectTrusted === false) continue;
    const base = scopeBaseDir(scope, agentDir, cwd);
    const file = join(base, "settings.json");
    const entries = settingsPackages(file, notices);
    if (
      scope === "project" &&
      entries.length > 0 &&
      !(projectTrusted ?? (approveProject || (await isTrusted(agentDir, cwd))))
    ) {
      // pi 1.6 reads a project's .pi configuration only once the project is trusted; its packages with it.
      notices.push(
        `ignoring the ${entries.length} package(s) of ${file}: this project is not trusted; run "pi trust" here to use them, or pass --approve for this run`,
      );
      continue;
    }
    for (const entry of entries) {
      const text = settingEntrySource(entry);
      // The filter rules load only for an entry in pi's object form, so a cold start without one skips them.
      const filters = typeof entry === "object" ? await import("../kit/packages/package-filter.js") : undefined;
      const filter = filters?.packageFilterOf(entry);
      if (text === undefined) {
        notices.push(`${file}: ignoring a "packages" entry without a "source"`);
        continue;
      }
      let source: PackageSource;
      try {
        source = parsePackageSource(text);
      } catch (error) {
        notices.push(`${file}: ${(error as Error).message}`);
        continue;
      }
      const identity = packageIdentity(source, base);
      const personal = out.find((p) => p.scope === "global" && p.identity === identity);
      if (scope === "project" && personal !== undefined) {
        // pi: a project entry replaces the personal one; with autoload false it is a delta over it.
        out.splice(out.indexOf(personal), 1);
        if (filters !== undefined && filter?.autoload === false) {
          const declared = personal.declared ?? kindPaths(personal);
          out.push({ ...personal, ...filters.applyDeltaOver(kindPaths(personal), declared, filter, personal.root) });
          continue;
        }
      }
      const root = installedPackagePath(source, base);
      if (!existsSync(root)) {
        notices.push(
          `package ${text} in ${file} is not installed; run "pi install ${text}${scope === "project" ? " -l" : ""}"`,
        );
        continue;
      }
      const isFile = statSync(root).isFile();
      const { contributes, problems } = packageContributions(
        root,
        isFile ? undefined : readJson(join(root, "package.json")),
        isFile ? [] : folderNames(root),
        isFile,
      );
      for (const problem of problems) notices.push(`package ${text}: ${problem}`);
      const plugins: PackagePlugin[] = [];
      // A project's packages get here only in a trusted project (above), so every package's code applies.
      for (const path of contributes.plugins) {
        const pluginFile = pluginEntryFile(path);
        if (pluginFile === undefined) {
          notices.push(`package ${text}: plugin ${path} is missing; reinstall the package`);
          continue;
        }
        loadId ??= await pluginIdLoader();
        plugins.push({ id: (await loadId(pluginFile)) ?? fallbackId(pluginFile), file: pluginFile });
      }
      const declared: KindPaths = {
        extensions: contributes.extensions,
        skills: contributes.skills,
        prompts: contributes.prompts,
        themes: contributes.themes,
      };
      out.push({
        source: text,
        scope,
        identity,
        root,
        plugins,
        ...(filters === undefined ? declared : filters.filterPackagePaths(declared, filter, root)),
        distribution: contributes.distribution,
        ...(filter !== undefined && { filter }),
        declared,
      });
    }
  }
  return out;
}

/**
 * Points every merged entry whose `use` is `npm:<pkg>` or `git:<url>` at the installed package's plugin:
 * the one whose id is the entry's id, else the package's only plugin. Throws DistributionError naming
 * the file and entry when the package is not installed or has no such plugin.
 */
export function resolvePackageUses(entries: MergedEntry[], packages: DistributionPackage[]): MergedEntry[] {
  return entries.map((entry) => {
    if (!entry.use.startsWith("npm:") && !entry.use.startsWith("git:")) return entry;
    const fail = (reason: string): never => {
      throw new DistributionError(entry.useFrom, entry.id, "use", reason);
    };
    let identity: string;
    try {
      identity = packageIdentity(parsePackageSource(entry.use), "/");
    } catch (error) {
      return fail((error as Error).message);
    }
    const pkg = packages.filter((p) => p.identity === identity).pop();
    if (pkg === undefined) {
      fail(`package "${entry.use}" is not installed; install it with "pi install ${entry.use}"`);
    }
    const plugin =
      pkg!.plugins.find((p) => p.id === entry.id) ?? (pkg!.plugins.length === 1 ? pkg!.plugins[0] : undefined);
    if (plugin === undefined) {
      const ids = pkg!.plugins.map((p) => p.id);
      fail(
        ids.length === 0
          ? `package "${entry.use}" has no pi-host plugins (its package.json lists none under "pi.plugins")`
          : `package "${entry.use}" has several plugins (${ids.join(", ")}); use one of their ids as this entry's id`,
      );
    }
    return { ...entry, use: plugin!.file };
  });
}

/** Reads a plugin's id from its definition, through jiti with the host's modules; undefined if it does not load. */
export type PluginIdLoader = (file: string) => Promise<string | undefined>;

/** A loader that evaluates plugin source as the kernel will (jiti, the host's virtual modules). */
export async function pluginIdLoader(): Promise<PluginIdLoader> {
  const { createJiti } = await import("jiti");
  const api = await import("./api.js");
  const jiti = createJiti(import.meta.url, {
    moduleCache: false,
    fsCache: true,
    interopDefault: true,
    virtualModules: { "pi-host": api, "@sinclair/typebox": await import("@sinclair/typebox"), tsyringe: api.tsyringe },
  });
  return async (file) => {
    try {
      const definition = (await jiti.import(file, { default: true })) as { id?: unknown } | undefined;
      return typeof definition?.id === "string" && definition.id !== "" ? definition.id : undefined;
    } catch {
      // The kernel loads it again at boot and reports why it fails, naming the file.
      return undefined;
    }
  };
}

/** The file a plugin path names: itself, or its folder's index file. */
export function pluginEntryFile(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  if (!statSync(path).isDirectory()) return path;
  return PLUGIN_INDEX_FILES.map((f) => join(path, f)).find((f) => existsSync(f));
}

/** The id of a plugin that does not load: its folder name (index files) or file name, as --plugin does. */
function fallbackId(file: string): string {
  const name = basename(file, extname(file));
  return name === "index" ? basename(dirname(file)) : name;
}

/** A package's resource lists as the filter functions take them. */
function kindPaths(pkg: DistributionPackage): KindPaths {
  return { extensions: pkg.extensions, skills: pkg.skills, prompts: pkg.prompts, themes: pkg.themes };
}

function settingsPackages(file: string, notices: string[]): unknown[] {
  if (!existsSync(file)) return [];
  const data = readJson(file, (reason) => notices.push(`${file}: ${reason}; its packages are not loaded`));
  const packages = data !== null && typeof data === "object" ? (data as { packages?: unknown }).packages : undefined;
  if (packages === undefined) return [];
  if (!Array.isArray(packages)) {
    notices.push(`${file}: "packages" must be an array; its packages are not loaded`);
    return [];
  }
  return packages;
}

function readJson(file: string, onError?: (reason: string) => void): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    onError?.(`not valid JSON (${(error as Error).message})`);
    return undefined;
  }
}

function folderNames(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}
