/**
 * The package manager (PackagesContract): install, remove, update and list the packages of pi's
 * `packages` setting. Every change follows one path — stage the new files, check them, move them into
 * place, write the setting, undo the move if the write fails, remove the staging folder — so a failure
 * at any step (unknown package, failing install script, registry gone mid-install, missing git ref, a
 * package that lists files it lacks) leaves settings.json and the install folders as they were.
 */
import { stat } from "node:fs/promises";
import { relative } from "node:path";
import {
  packageIdentity,
  installedPackagePath,
  packageInstallPath,
  parsePackageSource,
  resolveLocalPath,
  scopeBaseDir,
  settingEntrySource,
  type GitSource,
  type InstalledPackage,
  type NpmSource,
  type PackageManager,
  type PackageOptions,
  type PackageScope,
  type PackageSource,
  type UpdateOptions,
  type UpdateOutcome,
} from "pi-host";
import { type ListedPackage, withEntryFilter } from "./entry-filter.js";
import { GitRunner } from "./git-installer.js";
import { inspectPackage } from "./inspect.js";
import { NpmRunner, packageVersion } from "./npm-installer.js";
import type { Spawner } from "./run-command.js";
import { readScopePackages, readScopeSetting, updateScopePackages } from "./settings-packages.js";
import { Staging } from "./staging.js";

/** What the manager is built from. */
export interface ManagerOptions {
  agentDir: string;
  /** Starts npm and git; the plugin passes its owned `ownedSpawn(ctx, …)`. */
  spawn: Spawner;
}

/** A package staged and ready to move into place. */
interface StagedPackage {
  dir: string;
  version: string | undefined;
  commit: string | undefined;
}

const SCOPES: PackageScope[] = ["global", "project"];

/** The PackagesContract implementation over npm, git and the file system. */
export class FilePackageManager implements PackageManager {
  private readonly git: GitRunner;

  constructor(private readonly options: ManagerOptions) {
    this.git = new GitRunner(options.spawn);
  }

  async install(text: string, options: PackageOptions): Promise<InstalledPackage> {
    const scope: PackageScope = options.local ? "project" : "global";
    const base = scopeBaseDir(scope, this.options.agentDir, options.cwd);
    const progress = options.onProgress ?? (() => undefined);
    const source = parsePackageSource(text);
    await readScopePackages(scope, base); // a broken settings file stops the install before any work
    if (source.kind === "local") return this.addLocal(source.path, scope, base, options.cwd);

    const target = packageInstallPath(source, base);
    progress(`installing ${source.source} (${scope}) into ${target}`);
    const staging = await Staging.open(base);
    try {
      const npm = await this.npmRunner(scope, options.cwd, options.projectTrusted === true);
      const staged = await this.stage(
        source,
        source.kind === "npm" ? source.version : undefined,
        staging,
        npm,
        progress,
        options.signal,
      );
      progress(`moving ${source.source} into place and recording it in ${scope} settings`);
      await staging.place(staged.dir, target, () => this.recordEntry(scope, base, source, source.source));
    } finally {
      await staging.close();
    }
    const installed = await this.describe(source, scope, base);
    progress(`installed ${source.source}${installed.version !== undefined ? ` ${installed.version}` : ""}`);
    return installed;
  }

  async remove(text: string, options: PackageOptions): Promise<boolean> {
    const scope: PackageScope = options.local ? "project" : "global";
    const base = scopeBaseDir(scope, this.options.agentDir, options.cwd);
    const source = parsePackageSource(text);
    const identity =
      source.kind === "local"
        ? packageIdentity({ ...source, path: resolveLocalPath(source.path, options.cwd) }, base)
        : packageIdentity(source, base);
    const { entries } = await readScopePackages(scope, base);
    const remaining = entries.filter((entry) => entryIdentity(entry, base) !== identity);
    if (remaining.length === entries.length) return false;
    // The list is filtered again under the settings lock, so an entry another process adds meanwhile stays.
    const write = async (): Promise<void> =>
      void (await updateScopePackages(scope, base, (current) =>
        current.filter((entry) => entryIdentity(entry, base) !== identity),
      ));
    if (source.kind === "local") {
      await write();
      return true;
    }
    options.onProgress?.(`removing ${source.source} (${scope})`);
    const staging = await Staging.open(base);
    try {
      await staging.takeAway(installedPackagePath(source, base), write);
    } finally {
      await staging.close();
    }
    return true;
  }

  async update(text: string | undefined, options: UpdateOptions): Promise<UpdateOutcome[]> {
    const progress = options.onProgress ?? (() => undefined);
    const wanted = text === undefined ? undefined : parsePackageSource(text);
    const outcomes: UpdateOutcome[] = [];
    let skippedProject = false;
    for (const scope of SCOPES) {
      const base = scopeBaseDir(scope, this.options.agentDir, options.cwd);
      if (scope === "project" && options.projectTrusted !== true) {
        // An untrusted project's package list is not acted on: updating runs npm/git and install scripts.
        const { entries, file } = await readScopePackages(scope, base).catch(() => ({
          entries: [] as unknown[],
          file: "",
        }));
        if (entries.length > 0)
          progress(
            `skipping the ${entries.length} package(s) of ${file}: this project is not trusted; run "pi trust" here, or pass --approve`,
          );
        skippedProject = entries.length > 0;
        continue;
      }
      const wantedIdentity =
        wanted === undefined
          ? undefined
          : packageIdentity(
              wanted.kind === "local" ? { ...wanted, path: resolveLocalPath(wanted.path, options.cwd) } : wanted,
              base,
            );
      for (const entry of (await readScopePackages(scope, base)).entries) {
        const entryText = settingEntrySource(entry);
        if (entryText === undefined) continue;
        let source: PackageSource;
        try {
          source = parsePackageSource(entryText);
        } catch (error) {
          // One broken entry does not hold back the others; `pi list` shows why it is broken.
          progress(`skipping ${entryText}: ${(error as Error).message}`);
          continue;
        }
        if (wantedIdentity !== undefined && packageIdentity(source, base) !== wantedIdentity) continue;
        outcomes.push(await this.updateOne(source, scope, base, options, progress));
      }
    }
    if (text !== undefined && outcomes.length === 0 && skippedProject) {
      throw new Error(
        `${text} is not in the global packages setting, and this project's packages are updated only in a trusted project; run "pi trust" here, or pass --approve`,
      );
    }
    if (text !== undefined && outcomes.length === 0)
      throw new Error(`${text} is not in the packages setting; install it with "pi install ${text}"`);
    return outcomes;
  }

  async list(cwd: string): Promise<InstalledPackage[]> {
    const out: InstalledPackage[] = [];
    const personal = new Map<string, ListedPackage>();
    for (const scope of SCOPES) {
      const base = scopeBaseDir(scope, this.options.agentDir, cwd);
      for (const entry of (await readScopePackages(scope, base)).entries) {
        const text = settingEntrySource(entry);
        if (text === undefined) continue;
        let source: PackageSource;
        try {
          source = parsePackageSource(text);
        } catch (error) {
          out.push(unparsable(text, scope, (error as Error).message));
          continue;
        }
        const identity = packageIdentity(source, base);
        const listed = withEntryFilter(await this.describe(source, scope, base), entry, personal.get(identity));
        if (scope === "global") personal.set(identity, listed);
        out.push(listed.pkg);
      }
    }
    return out;
  }

  /** Brings one package of the setting to its newest version, unless it is pinned or local. */
  private async updateOne(
    source: PackageSource,
    scope: PackageScope,
    base: string,
    options: UpdateOptions,
    progress: (line: string) => void,
  ): Promise<UpdateOutcome> {
    const outcome = (status: UpdateOutcome["status"], from?: string, to?: string): UpdateOutcome => ({
      source: source.source,
      scope,
      status,
      from,
      to,
    });
    if (source.kind === "local") return outcome("local");
    const target = installedPackagePath(source, base);
    const npm = await this.npmRunner(scope, options.cwd, options.projectTrusted === true);
    const installed = await exists(target);
    const current = !installed
      ? undefined
      : source.kind === "npm"
        ? await packageVersion(target)
        : await this.git.commitOf(target, options.signal);
    if (installed && source.pinned) return outcome("pinned", current, current);

    let spec: string | undefined;
    if (source.kind === "npm") {
      progress(`checking ${source.source} for a newer version`);
      spec = source.pinned ? source.version : await npm.latestVersion(source.name, base, options.signal);
      if (installed && current === spec) return outcome("current", current, current);
    } else if (installed) {
      progress(`checking ${source.source} for new commits`);
      if ((await this.git.remoteHead(source.repo, options.signal)) === current)
        return outcome("current", current, current);
    }

    progress(`updating ${source.source} (${scope})`);
    const staging = await Staging.open(base);
    let to: string | undefined;
    try {
      const staged = await this.stage(source, spec, staging, npm, progress, options.signal);
      to = source.kind === "npm" ? staged.version : staged.commit;
      progress(`moving ${source.source} ${to ?? ""} into place`);
      await staging.place(staged.dir, target, async () => undefined);
    } finally {
      await staging.close();
    }
    progress(`updated ${source.source}${current !== undefined ? ` from ${current}` : ""} to ${to}`);
    return outcome("updated", current, to);
  }

  /** Fetches a package into the staging folder and refuses it if what it lists is not there. */
  private async stage(
    source: NpmSource | GitSource,
    npmSpec: string | undefined,
    staging: Staging,
    npm: NpmRunner,
    progress: (line: string) => void,
    signal?: AbortSignal,
  ): Promise<StagedPackage> {
    let staged: StagedPackage;
    if (source.kind === "npm") {
      progress(`fetching ${source.name}${npmSpec !== undefined ? `@${npmSpec}` : ""} with npm`);
      const result = await npm.stage(source, npmSpec, staging.dir, signal);
      staged = { dir: result.dir, version: result.version, commit: undefined };
    } else {
      const result = await this.git.stage(source, staging.path("clone"), npm, progress, signal);
      staged = { dir: result.dir, version: await packageVersion(result.dir), commit: result.commit };
    }
    progress(`checking what ${source.source} contributes`);
    const inspection = await inspectPackage(staged.dir);
    if (inspection.problems.length > 0)
      throw new Error(`${source.source} cannot be installed: ${inspection.problems.join("; ")}`);
    return staged;
  }

  /** A local path: checked, then recorded as pi records it (relative to the scope's folder). */
  private async addLocal(path: string, scope: PackageScope, base: string, cwd: string): Promise<InstalledPackage> {
    const absolute = resolveLocalPath(path, cwd);
    if (!(await exists(absolute))) {
      const hint = /^[a-z0-9@]/i.test(path) && !path.includes("/") ? `; for an npm package write npm:${path}` : "";
      throw new Error(`no such folder or file: ${absolute}${hint}`);
    }
    const inspection = await inspectPackage(absolute);
    if (inspection.problems.length > 0)
      throw new Error(`${path} cannot be installed: ${inspection.problems.join("; ")}`);
    const stored = relative(base, absolute) || ".";
    const source = parsePackageSource(stored);
    await this.recordEntry(scope, base, source, stored);
    return this.describe(source, scope, base);
  }

  /**
   * Writes the scope's setting with `text` in place of any entry naming the same package (else appended),
   * as one read-modify-write under the settings lock, so concurrent installs each keep their entry.
   */
  private async recordEntry(scope: PackageScope, base: string, source: PackageSource, text: string): Promise<void> {
    const identity = packageIdentity(source, base);
    await updateScopePackages(scope, base, (entries) => {
      const next: unknown[] = [];
      let placed = false;
      for (const entry of entries) {
        if (entryIdentity(entry, base) !== identity) next.push(entry);
        else if (!placed) {
          next.push(typeof entry === "object" && entry !== null ? { ...entry, source: text } : text);
          placed = true;
        }
      }
      if (!placed) next.push(text);
      return next;
    });
  }

  /** A package of the setting as it is on disk. */
  private async describe(source: PackageSource, scope: PackageScope, base: string): Promise<InstalledPackage> {
    const path = installedPackagePath(source, base);
    const installed = await exists(path);
    const inspection = installed ? await inspectPackage(path) : undefined;
    const commit =
      installed && source.kind === "git" ? await this.git.commitOf(path).catch(() => undefined) : undefined;
    return {
      source: source.source,
      scope,
      kind: source.kind,
      name: source.kind === "npm" ? source.name : source.kind === "git" ? `${source.host}/${source.path}` : path,
      pinned: source.pinned,
      version: inspection?.version,
      ref: source.kind === "git" ? source.ref : undefined,
      commit,
      path,
      installed,
      contributes: inspection?.contributes ?? {
        plugins: [],
        extensions: [],
        skills: [],
        prompts: [],
        themes: [],
        distribution: undefined,
      },
      problems: installed
        ? inspection!.problems
        : [`not installed; run "pi install ${source.source}${scope === "project" ? " -l" : ""}"`],
    };
  }

  /**
   * npm as the `npmCommand` setting says (pi's setting), else the machine's `npm`. The setting runs a
   * command, so the project's value counts only for a project-scope operation in a trusted project;
   * otherwise only the global settings file is read.
   */
  private async npmRunner(scope: PackageScope, cwd: string, projectTrusted: boolean): Promise<NpmRunner> {
    const fromProject =
      scope === "project" && projectTrusted
        ? await readScopeSetting(scopeBaseDir("project", this.options.agentDir, cwd), "npmCommand")
        : undefined;
    const configured =
      fromProject ?? (await readScopeSetting(scopeBaseDir("global", this.options.agentDir, cwd), "npmCommand"));
    if (configured === undefined) return new NpmRunner(this.options.spawn, ["npm"]);
    if (
      !Array.isArray(configured) ||
      configured.length === 0 ||
      configured.some((part) => typeof part !== "string" || part === "")
    ) {
      throw new Error(`the "npmCommand" setting must be a non-empty array of strings like ["npm"]`);
    }
    return new NpmRunner(this.options.spawn, configured as string[]);
  }
}

/** The identity of a setting entry, or undefined for an entry that names no valid source. */
function entryIdentity(entry: unknown, base: string): string | undefined {
  const text = settingEntrySource(entry);
  if (text === undefined) return undefined;
  try {
    return packageIdentity(parsePackageSource(text), base);
  } catch {
    return undefined;
  }
}

/** A setting entry whose source does not parse, shown by `list` with the reason. */
function unparsable(text: string, scope: PackageScope, reason: string): InstalledPackage {
  return {
    source: text,
    scope,
    kind: text.startsWith("npm:") ? "npm" : "git",
    name: text,
    pinned: false,
    version: undefined,
    ref: undefined,
    commit: undefined,
    path: "",
    installed: false,
    contributes: { plugins: [], extensions: [], skills: [], prompts: [], themes: [], distribution: undefined },
    problems: [reason],
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
