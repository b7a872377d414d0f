/**
 * Reads what a package folder contributes (its package.json `pi` key, else pi's convention folders) and
 * checks that every path it lists is there: a plugin is a file or a folder with an index file, the
 * distribution a plugins.json that parses. A staged package with a problem is refused before it is
 * moved into place; an installed one shows its problems in `pi list`.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { packageContributions, PLUGIN_INDEX_FILES, type PackageContributions } from "pi-host";

/** What a package folder brings, and what is wrong with it. */
export interface PackageInspection {
  /** The package.json's version, if it has one. */
  version: string | undefined;
  contributes: PackageContributions;
  problems: string[];
}

/** Inspects the package at `root`. Never throws; problems come back as lines. */
export async function inspectPackage(root: string): Promise<PackageInspection> {
  if ((await kindOf(root)) === "file")
    return { version: undefined, ...packageContributions(root, undefined, [], true) };
  const problems: string[] = [];
  let packageJson: unknown;
  try {
    packageJson = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      problems.push(`package.json: cannot be read (${(error as Error).message})`);
  }
  const topFolders = await folderNames(root);
  const { contributes, problems: manifestProblems } = packageContributions(root, packageJson, topFolders);
  problems.push(...manifestProblems);
  for (const plugin of contributes.plugins) {
    const kind = await kindOf(plugin);
    if (kind === "dir" && !(await anyExists(PLUGIN_INDEX_FILES.map((f) => join(plugin, f))))) {
      problems.push(`plugin folder ${shown(root, plugin)} has no ${PLUGIN_INDEX_FILES.join("/")}`);
    } else if (kind === undefined) {
      problems.push(`plugin ${shown(root, plugin)} does not exist`);
    }
  }
  for (const key of ["extensions", "skills", "prompts", "themes"] as const) {
    for (const path of contributes[key])
      if ((await kindOf(path)) === undefined) problems.push(`${key} path ${shown(root, path)} does not exist`);
  }
  if (contributes.distribution !== undefined) {
    try {
      JSON.parse(await readFile(contributes.distribution, "utf8"));
    } catch (error) {
      problems.push(
        `distribution ${shown(root, contributes.distribution)} is not a readable JSON file (${(error as Error).message})`,
      );
    }
  }
  const version =
    packageJson !== null &&
    typeof packageJson === "object" &&
    typeof (packageJson as { version?: unknown }).version === "string"
      ? (packageJson as { version: string }).version
      : undefined;
  return { version, contributes, problems };
}

async function folderNames(root: string): Promise<string[]> {
  try {
    return (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
}

async function kindOf(path: string): Promise<"file" | "dir" | undefined> {
  try {
    return (await stat(path)).isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

async function anyExists(paths: string[]): Promise<boolean> {
  for (const path of paths) if ((await kindOf(path)) === "file") return true;
  return false;
}

function shown(root: string, path: string): string {
  return `./${relative(root, path)}`;
}
