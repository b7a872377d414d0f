/**
 * The `packages` setting of one scope. The settings contract reads global and project deep-merged, but a
 * package belongs to exactly one of them, so the list is read from that scope's own settings.json;
 * writes go through the settings contract, which holds pi's lock and replaces the file atomically.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PackageScope } from "../../contracts/packages.js";
import type { SettingsStore } from "../../contracts/resources.js";
import type { Handle } from "../../kernel/index.js";

/** A scope's settings file and its `packages` entries as stored (strings or pi's filter objects). */
export interface ScopePackages {
  scope: PackageScope;
  file: string;
  entries: unknown[];
}

/** Reads the `packages` entries of `<baseDir>/settings.json`; a missing file has none. */
export async function readScopePackages(scope: PackageScope, baseDir: string): Promise<ScopePackages> {
  const file = join(baseDir, "settings.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { scope, file, entries: [] };
    throw new Error(`${file}: cannot be read (${(error as Error).message})`);
  }
  if (text.trim() === "") return { scope, file, entries: [] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message}); fix the file before installing packages`);
  }
  const packages = data !== null && typeof data === "object" ? (data as { packages?: unknown }).packages : undefined;
  if (packages === undefined) return { scope, file, entries: [] };
  if (!Array.isArray(packages)) throw new Error(`${file}: "packages" must be an array of sources like ["npm:name"]`);
  return { scope, file, entries: packages };
}

/** Stores a scope's new `packages` list through the settings contract. */
export async function writeScopePackages(settings: Handle<SettingsStore>, cwd: string, scope: PackageScope, entries: unknown[]): Promise<void> {
  await settings.call("set", cwd, "packages", entries, scope);
}
