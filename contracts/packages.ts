/**
 * Packages: `pi install/remove/update/list` for npm, git and local-path sources, as pi records them in
 * the `packages` setting. A package contributes through the `pi` key of its package.json — pi's
 * `extensions`, `skills`, `prompts`, `themes`, and pi-host's `plugins` and `distribution` — or, without
 * that key, through pi's convention folders.
 *
 * The pure rules the package manager plugin and the host must agree on (how a source string parses,
 * where a package is installed) live in kit/packages/package-source.ts.
 */
import { defineContract } from "../kernel/index.js";

/** Where a package is recorded and installed: the agent folder, or the project's `.pi` folder (`-l`). */
export type PackageScope = "global" | "project";

/** An npm package: `npm:<name>[@<version or range or tag>]`. Any version makes it pinned. */
export interface NpmSource {
  kind: "npm";
  /** The text as the user wrote it (what the setting stores). */
  source: string;
  name: string;
  /** The version, range or tag after the name, when given. */
  version: string | undefined;
  pinned: boolean;
}

/** A git repository: `git:<host>/<path>[@ref]`, `git:git@host:path[@ref]`, or an https/http/ssh/git URL. */
export interface GitSource {
  kind: "git";
  source: string;
  /** What `git clone` takes: the URL without the ref. */
  repo: string;
  /** The host name (no port, no user), the first folder of the install path. */
  host: string;
  /** The repository path without `.git`, the rest of the install path. */
  path: string;
  /** The branch, tag or commit after `@`; a ref pins the package. */
  ref: string | undefined;
  pinned: boolean;
}

/** A folder or file on disk, used where it is (never copied). */
export interface LocalSource {
  kind: "local";
  source: string;
  /** The path as written; relative paths are relative to the scope's base folder. */
  path: string;
  pinned: false;
}

/** A parsed source string. */
export type PackageSource = NpmSource | GitSource | LocalSource;

/** What a package brings, as absolute paths inside the package. */
export interface PackageContributions {
  /** pi-host plugins (files, or folders with an index file); each becomes a distribution entry. */
  plugins: string[];
  /** pi extension modules or folders of them. */
  extensions: string[];
  /** Skill folders or SKILL.md / *.md files. */
  skills: string[];
  /** Prompt template folders or *.md files. */
  prompts: string[];
  /** Theme folders or *.json files. */
  themes: string[];
  /** A plugins.json overlay, applied in the packages layer of the distribution. */
  distribution: string | undefined;
}

/** The resources a filtered package entry leaves on, as absolute paths, by type. */
export interface PackageEnabled {
  extensions: string[];
  skills: string[];
  prompts: string[];
  themes: string[];
}

/** One package of the `packages` setting, as installed (or not) on this machine. */
export interface InstalledPackage {
  /** The setting's source text. */
  source: string;
  scope: PackageScope;
  kind: PackageSource["kind"];
  /** npm name, `<host>/<path>` for git, the absolute path for a local source. */
  name: string;
  pinned: boolean;
  /** The package.json version of what is installed, when it has one. */
  version: string | undefined;
  /** git: the ref the source pins, if any. */
  ref: string | undefined;
  /** git: the checked-out commit. */
  commit: string | undefined;
  /** Where it is (or would be) on disk. */
  path: string;
  /** False when the setting names it but its folder is missing (`pi install` it again). */
  installed: boolean;
  contributes: PackageContributions;
  /**
   * 1.1.0: pi's `(filtered)`: the settings entry is in object form, with resource filters (see
   * kit/packages/package-filter.ts). Absent from a 1.0 provider, which lists what the package declares.
   */
  filtered?: boolean;
  /**
   * 1.1.0: what the entry's filter leaves on, by type: the files it leaves of a type it names, the
   * declared paths of a type it leaves alone. A project entry with `autoload: false` is shown over the
   * global entry of the same package, as it loads. Set when `filtered`.
   */
  enabled?: PackageEnabled;
  /** What is wrong with it (missing folder, paths its manifest lists but lacks), one line each. */
  problems: string[];
}

/** What one package did in an update. */
export interface UpdateOutcome {
  source: string;
  scope: PackageScope;
  status: "updated" | "current" | "pinned" | "local";
  from: string | undefined;
  to: string | undefined;
}

/** Options of install and remove. */
export interface PackageOptions {
  /** The working folder: its `.pi/` holds project settings and project installs. */
  cwd: string;
  /** `-l`: the project scope instead of the global one. */
  local?: boolean;
  /** Receives one line per long step (the CLI prints them on stderr). */
  onProgress?: (line: string) => void;
  /** Stops a running install; the staged files are removed and nothing changes. */
  signal?: AbortSignal;
  /**
   * Whether the project at `cwd` is trusted (`pi trust`, or `--approve` for this run). Only then do the
   * project's command-valued settings (`npmCommand`) apply, and only to project-scope operations.
   */
  projectTrusted?: boolean;
}

/** Options of update. */
export interface UpdateOptions {
  cwd: string;
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
  /** As for install: without it the project's packages are skipped and its `npmCommand` never runs. */
  projectTrusted?: boolean;
}

/**
 * The package manager. Installs are atomic: a package is fetched and installed in a staging folder and
 * only then moved into place and recorded in settings; any failure leaves settings and install folders
 * as they were.
 */
export interface PackageManager {
  install(source: string, options: PackageOptions): Promise<InstalledPackage>;
  /** Removes the package from the scope's settings and deletes its install folder; false when absent. */
  remove(source: string, options: PackageOptions): Promise<boolean>;
  /** Moves unpinned packages (or the one named) to their newest version; pinned ones stay. */
  update(source: string | undefined, options: UpdateOptions): Promise<UpdateOutcome[]>;
  /** Every package of the global then the project settings. */
  list(cwd: string): Promise<InstalledPackage[]>;
}

/**
 * The package manager: one per host, stateless between calls, so a reload never waits (overlap).
 * 1.1.0: `list` says which entries are filtered and what their filters leave on (`filtered`, `enabled`).
 */
export const PackagesContract = defineContract<PackageManager>({
  id: "packages",
  version: "1.1.0",
  kind: "single",
  gate: "overlap",
  shape: { install: "function", remove: "function", update: "function", list: "function" },
  methods: { install: "async", remove: "async", update: "async", list: "async" },
});

/** The `pi` key of a package.json, with pi-host's `plugins` and `distribution`. */
export interface PackageManifest {
  extensions?: string[];
  skills?: string[];
  prompts?: string[];
  themes?: string[];
  plugins?: string[];
  distribution?: string;
}
