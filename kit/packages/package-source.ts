/**
 * The pure rules that the package manager plugin and the host (which turns installed packages into a
 * distribution layer before any plugin runs) must agree on: how a source string parses, which settings
 * entries name the same package, where a package is installed, and what a package contributes.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type {
  GitSource,
  NpmSource,
  PackageContributions,
  PackageScope,
  PackageSource,
} from "../../contracts/packages.js";

/** A source string that names no package: one line saying what is accepted. */
export class PackageSourceError extends Error {
  constructor(source: string, reason: string) {
    super(`invalid package source "${source}": ${reason}`);
    this.name = "PackageSourceError";
  }
}

const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;
const GIT_PROTOCOLS = /^(?:https?|ssh|git):\/\//i;

/** Parses a source as pi does: `npm:`, `git:` or a protocol URL is a repository, anything else a path. */
export function parsePackageSource(text: string): PackageSource {
  const source = text.trim();
  if (source === "") throw new PackageSourceError(text, "it is empty; give npm:<name>, git:<host>/<path> or a path");
  if (source.startsWith("npm:")) return parseNpm(source);
  if (source.startsWith("git:") || GIT_PROTOCOLS.test(source)) return parseGit(source);
  return { kind: "local", source, path: source, pinned: false };
}

function parseNpm(source: string): NpmSource {
  const spec = source.slice(4).trim();
  const at = spec.indexOf("@", 1);
  const name = at === -1 ? spec : spec.slice(0, at);
  const version = at === -1 ? undefined : spec.slice(at + 1);
  if (!NPM_NAME.test(name))
    throw new PackageSourceError(source, `"${name}" is not an npm package name (lower-case, optionally @scope/name)`);
  if (version !== undefined && version.trim() === "")
    throw new PackageSourceError(source, "nothing after @; give a version or drop the @");
  return { kind: "npm", source, name, version, pinned: version !== undefined };
}

function parseGit(source: string): GitSource {
  const url = source.startsWith("git:") && !source.startsWith("git://") ? source.slice(4).trim() : source;
  let repo: string;
  let host: string;
  let path: string;
  let ref: string | undefined;
  const scp = /^([^@/:]+)@([^:/]+):(.+)$/.exec(url);
  if (scp !== null) {
    [path, ref] = splitRef(scp[3]!);
    host = scp[2]!;
    repo = `${scp[1]}@${host}:${path}`;
  } else if (GIT_PROTOCOLS.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new PackageSourceError(source, "not a valid URL");
    }
    const [pathname, atRef] = splitRef(decodeURIComponent(parsed.pathname).replace(/^\/+/, ""));
    ref = atRef;
    host = parsed.hostname;
    path = pathname;
    parsed.pathname = `/${pathname}`;
    repo = parsed.toString();
  } else {
    const slash = url.indexOf("/");
    if (slash <= 0)
      throw new PackageSourceError(
        source,
        "expected git:<host>/<path>[@ref], git:git@<host>:<path> or a https/ssh/git URL",
      );
    host = url.slice(0, slash);
    [path, ref] = splitRef(url.slice(slash + 1));
    if (!host.includes(".") && host !== "localhost")
      throw new PackageSourceError(source, `"${host}" is not a host name; expected git:<host>/<path>`);
    repo = `https://${host}/${path}`;
  }
  const cleanPath = path.replace(/\.git$/, "").replace(/\/+$/, "");
  if (host === "" || cleanPath === "") throw new PackageSourceError(source, "the repository needs a host and a path");
  if (cleanPath.split("/").some((part) => part === "" || part === "." || part === "..")) {
    throw new PackageSourceError(source, "the repository path may not contain empty, . or .. parts");
  }
  return { kind: "git", source, repo, host: host.toLowerCase(), path: cleanPath, ref, pinned: ref !== undefined };
}

/** Splits `path@ref` at the first `@` of the path (a host's user@ is never part of it). */
function splitRef(pathWithRef: string): [string, string | undefined] {
  const at = pathWithRef.indexOf("@");
  if (at === -1) return [pathWithRef, undefined];
  const ref = pathWithRef.slice(at + 1);
  return [pathWithRef.slice(0, at), ref === "" ? undefined : ref];
}

/** The folder a scope keeps its settings and installs in: the agent folder, or `<cwd>/.pi`. */
export function scopeBaseDir(scope: PackageScope, agentDir: string, cwd: string): string {
  return scope === "global" ? agentDir : join(cwd, ".pi");
}

/**
 * Where a package is installed: npm packages in `<base>/npm/node_modules/<name>`, git repositories in
 * `<base>/git/<host>/<path>` (pi 1.6.0's layout, so either program finds what the other installed),
 * local paths where they are (relative to `<base>`).
 */
export function packageInstallPath(source: PackageSource, baseDir: string): string {
  if (source.kind === "npm") return join(baseDir, "npm", "node_modules", ...source.name.split("/"));
  if (source.kind === "git") return join(baseDir, "git", source.host, ...source.path.split("/"));
  return resolveLocalPath(source.path, baseDir);
}

/**
 * Where an installed package is on disk: `packageInstallPath`, or for an npm package that earlier
 * pi-host versions installed at `<base>/npm/<name>` and that is only there, that folder (so updating
 * pi-host loses no install; a new install or update of it moves nowhere, it stays where it is).
 */
export function installedPackagePath(
  source: PackageSource,
  baseDir: string,
  exists: (path: string) => boolean = existsSync,
): string {
  const current = packageInstallPath(source, baseDir);
  if (source.kind !== "npm" || exists(current)) return current;
  const earlier = join(baseDir, "npm", ...source.name.split("/"));
  return exists(join(earlier, "package.json")) ? earlier : current;
}

/** A local source's absolute path: `~` is the home folder, a relative path is relative to `baseDir`. */
export function resolveLocalPath(path: string, baseDir: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

/** What makes two sources the same package: the npm name, the repository without ref, or the path. */
export function packageIdentity(source: PackageSource, baseDir: string): string {
  if (source.kind === "npm") return `npm:${source.name}`;
  if (source.kind === "git") return `git:${source.host}/${source.path}`;
  return `local:${resolveLocalPath(source.path, baseDir)}`;
}

/** The source text of one `packages` setting entry: a string, or an object with `source` (pi's filter form). */
export function settingEntrySource(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (entry !== null && typeof entry === "object" && typeof (entry as { source?: unknown }).source === "string")
    return (entry as { source: string }).source;
  return undefined;
}

/** The entry files a plugin folder may have, in the order they are looked for (as for any plugin path). */
export const PLUGIN_INDEX_FILES = ["index.ts", "index.mts", "index.js", "index.mjs"];

/** pi's convention folders, used for a resource type when the package.json has no `pi` key. */
export const CONVENTION_FOLDERS = {
  extensions: "extensions",
  skills: "skills",
  prompts: "prompts",
  themes: "themes",
} as const;

/**
 * What a package contributes, from its package.json (parsed, or undefined when it has none) and the
 * names of its top-level folders. Returns the contributions and one line per problem with the manifest.
 * A local source that is a file (`rootIsFile`) is one pi extension, as in pi.
 */
export function packageContributions(
  root: string,
  packageJson: unknown,
  topFolders: string[],
  rootIsFile = false,
): { contributes: PackageContributions; problems: string[] } {
  const problems: string[] = [];
  const contributes: PackageContributions = {
    plugins: [],
    extensions: [],
    skills: [],
    prompts: [],
    themes: [],
    distribution: undefined,
  };
  if (rootIsFile) {
    contributes.extensions.push(root);
    return { contributes, problems };
  }
  const pi = packageJson !== null && typeof packageJson === "object" ? (packageJson as { pi?: unknown }).pi : undefined;
  if (pi === undefined) {
    for (const [key, folder] of Object.entries(CONVENTION_FOLDERS)) {
      if (topFolders.includes(folder)) contributes[key as keyof typeof CONVENTION_FOLDERS].push(join(root, folder));
    }
    return { contributes, problems };
  }
  if (pi === null || typeof pi !== "object" || Array.isArray(pi))
    return { contributes, problems: [`package.json: "pi" must be an object like {"plugins": ["./plugin"]}`] };
  const manifest = pi as Record<string, unknown>;
  for (const key of ["plugins", "extensions", "skills", "prompts", "themes"] as const) {
    const value = manifest[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item === "")) {
      problems.push(`package.json: "pi.${key}" must be an array of paths relative to the package`);
      continue;
    }
    for (const item of value as string[]) {
      const path = inside(root, item);
      if (path === undefined) problems.push(`package.json: "pi.${key}" path "${item}" leaves the package folder`);
      else contributes[key].push(path);
    }
  }
  const distribution = manifest.distribution;
  if (distribution !== undefined) {
    const path = typeof distribution === "string" && distribution !== "" ? inside(root, distribution) : undefined;
    if (path === undefined)
      problems.push(`package.json: "pi.distribution" must be the path of a plugins.json inside the package`);
    else contributes.distribution = path;
  }
  return { contributes, problems };
}

/** `item` resolved inside `root`, or undefined when it points outside. */
function inside(root: string, item: string): string | undefined {
  if (isAbsolute(item)) return undefined;
  const path = resolve(root, item);
  return path === root || path.startsWith(`${root}/`) ? path : undefined;
}
