/**
 * pi 1.6's per-resource switches in the `extensions`, `skills`, `prompts` and `themes` settings, which
 * `pi config` writes and every loader of discovered resources reads: `-path` turns one discovered
 * resource off, `+path` turns it on again, `!glob` turns off every match; the last entry naming a
 * resource wins. Paths are relative to the scope's folder (the agent folder for the global settings,
 * the project's `.pi` folder for the project's). Other entries (plain paths) add resources and are left
 * to the loaders. Kept once here so the loaders and `pi config` agree on what is off.
 */
import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { globToRegExp } from "./glob.js";

/** The resource settings `pi config` switches. */
export const RESOURCE_KINDS = ["extensions", "skills", "prompts", "themes"] as const;

/** One of pi's resource settings. */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Where a discovered resource comes from: the agent folder (`user`) or the project's `.pi` folder. */
export type ResourceScope = "user" | "project";

/** The switches of both scopes, with the folder each is relative to. */
export interface ResourceOverrides {
  user: { baseDir: string; entries: Record<ResourceKind, string[]> };
  project: { baseDir: string; entries: Record<ResourceKind, string[]> } | undefined;
}

/**
 * Reads the resource settings of the global file and, when the project's files apply, the project's.
 * A missing or unreadable file has no switches (the settings plugin reports a broken file).
 */
export async function readResourceOverrides(
  agentDir: string,
  cwd: string,
  projectApplies: boolean,
): Promise<ResourceOverrides> {
  const projectDir = join(cwd, ".pi");
  return {
    user: { baseDir: agentDir, entries: await readEntries(join(agentDir, "settings.json")) },
    project: projectApplies
      ? { baseDir: projectDir, entries: await readEntries(join(projectDir, "settings.json")) }
      : undefined,
  };
}

/**
 * Whether a discovered resource loads: the global settings' switch, and over it the project's (pi's
 * project overrides, which may switch a user resource too).
 */
export function resourceEnabled(overrides: ResourceOverrides, kind: ResourceKind, path: string): boolean {
  let enabled = switchFor(overrides.user.entries[kind], overrides.user.baseDir, path) ?? true;
  if (overrides.project !== undefined) {
    const project = switchFor(overrides.project.entries[kind], overrides.project.baseDir, path);
    if (project !== undefined) enabled = project;
  }
  return enabled;
}

/**
 * What the entries say about one resource: true (`+`), false (`-` or a matching `!glob`), or undefined
 * when no entry names it. The last naming entry wins.
 */
export function switchFor(entries: readonly string[], baseDir: string, path: string): boolean | undefined {
  const wanted = new Set([resolve(path), relative(baseDir, path)]);
  let state: boolean | undefined;
  for (const entry of entries) {
    const sign = entry[0];
    if (sign !== "+" && sign !== "-" && sign !== "!") continue;
    const target = entry.slice(1);
    if (sign === "!") {
      if (globToRegExp(target).test(relative(baseDir, path))) state = false;
      continue;
    }
    const named = isAbsolute(target) ? resolve(target) : target.replace(/^\.\//, "").replace(/\/$/, "");
    if (wanted.has(named)) state = sign === "+";
  }
  return state;
}

/** The pattern `pi config` writes for a resource: its path relative to the scope's folder. */
export function resourcePattern(baseDir: string, path: string): string {
  return relative(baseDir, path);
}

/**
 * The entries with one resource switched: its earlier `+`/`-`/`!` entries dropped, then `+path` or
 * `-path`; with `enabled` undefined, no switch of its own (pi's "inherit" in project settings).
 */
export function withSwitch(entries: readonly string[], pattern: string, enabled: boolean | undefined): string[] {
  const kept = entries.filter((entry) => !("+-!".includes(entry[0] ?? "") && entry.slice(1) === pattern));
  return enabled === undefined ? kept : [...kept, `${enabled ? "+" : "-"}${pattern}`];
}

async function readEntries(file: string): Promise<Record<ResourceKind, string[]>> {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      data = parsed as Record<string, unknown>;
  } catch {
    // no file, or one the settings plugin reports
  }
  const list = (key: ResourceKind): string[] => {
    const value = data[key];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  };
  return { extensions: list("extensions"), skills: list("skills"), prompts: list("prompts"), themes: list("themes") };
}
