/**
 * Where extensions come from, by pi's rules (docs/extensions.md, "Extension Locations"): the project's
 * `.pi/extensions/`, then `<agentDir>/extensions/`, then configured paths (the `extensions` setting, the
 * distribution's config, `-e`). In a folder, each `*.ts`/`*.js` file is an extension, and each
 * subfolder contributes its package.json `pi.extensions` entries or its `index.ts`/`index.js`. A
 * configured folder is read the same way. Each file loads once, in that order.
 *
 * A discovered file that pi config switched off (`-path` in the `extensions` setting) is left out.
 *
 * Project code runs only in a trusted project (the host's project-trust decision), so `.pi/extensions/`
 * of an untrusted project is skipped; the host's one startup line says so, for every protected file.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { readResourceOverrides, resourceEnabled } from "pi-host";

/** Where one extension was found; `scope` is pi's SourceInfo scope. */
export interface ExtensionLocation {
  path: string;
  scope: "user" | "project" | "temporary";
}

/** What discovery needs to know. */
export interface DiscoveryInput {
  cwd: string;
  agentDir: string;
  /** Paths from settings, config and the command line, relative to `cwd`; `~` is the home folder. */
  configured: string[];
  /** pi's `--no-extensions`: skip the two folders; configured paths still load. */
  noDiscovery: boolean;
  /** Whether the project is trusted, so its `.pi/extensions/` loads. */
  projectTrusted: boolean;
}

/** The extensions found, and what the user should hear about (skipped folders, missing paths). */
export interface Discovery {
  found: ExtensionLocation[];
  notices: string[];
}

/** Finds the extension entry files, in load order, each once. */
export async function discoverExtensions(input: DiscoveryInput): Promise<Discovery> {
  const found: ExtensionLocation[] = [];
  const notices: string[] = [];
  const seen = new Set<string>();
  const add = (paths: string[], scope: ExtensionLocation["scope"]): void => {
    for (const path of paths) {
      const resolved = resolve(path);
      if (seen.has(resolved)) continue;
      seen.add(resolved);
      found.push({ path: resolved, scope });
    }
  };
  if (!input.noDiscovery) {
    // pi config's switches (`-extensions/x.ts` in settings) leave a discovered extension out.
    const overrides = await readResourceOverrides(input.agentDir, input.cwd, input.projectTrusted);
    const on = (paths: string[]): string[] => paths.filter((p) => resourceEnabled(overrides, "extensions", p));
    if (input.projectTrusted) add(on(await entriesInFolder(join(input.cwd, ".pi", "extensions"))), "project");
    add(on(await entriesInFolder(join(input.agentDir, "extensions"))), "user");
  }
  for (const configured of input.configured) {
    const path = expandPath(configured, input.cwd);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) {
      notices.push(
        path === configured ? `extension ${path} not found` : `extension ${configured} not found (looked at ${path})`,
      );
      continue;
    }
    if (info.isDirectory()) add((await packageEntries(path)) ?? (await entriesInFolder(path)), "temporary");
    else add([path], "temporary");
  }
  return { found, notices };
}

/** A path as pi reads it: `~` is the home folder, relative paths start at `cwd`. */
export function expandPath(path: string, cwd: string): string {
  const trimmed = path.trim();
  if (trimmed === "~") return homedir();
  if (trimmed.startsWith("~/")) return join(homedir(), trimmed.slice(2));
  return isAbsolute(trimmed) ? trimmed : resolve(cwd, trimmed);
}

const isEntryFile = (name: string): boolean => name.endsWith(".ts") || name.endsWith(".js");

/** One folder level: entry files, and each subfolder's package entries or index file. */
async function entriesInFolder(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    const kind = entry.isSymbolicLink() ? await stat(path).catch(() => undefined) : entry;
    if (kind === undefined) continue;
    if (kind.isFile() && isEntryFile(entry.name)) out.push(path);
    else if (kind.isDirectory()) out.push(...((await packageEntries(path)) ?? []));
  }
  return out;
}

/** A folder's entry points: package.json `pi.extensions` (existing files), else index.ts, else index.js. */
async function packageEntries(dir: string): Promise<string[] | undefined> {
  const manifest = await readFile(join(dir, "package.json"), "utf8").then(
    (text) => JSON.parse(text) as { pi?: { extensions?: unknown } },
    () => undefined,
  );
  const declared = Array.isArray(manifest?.pi?.extensions)
    ? manifest.pi.extensions.filter((p): p is string => typeof p === "string")
    : [];
  const existing: string[] = [];
  for (const entry of declared) {
    const path = resolve(dir, entry);
    if (await exists(path)) existing.push(path);
  }
  if (existing.length > 0) return existing;
  for (const index of ["index.ts", "index.js"]) {
    if (await exists(join(dir, index))) return [join(dir, index)];
  }
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
