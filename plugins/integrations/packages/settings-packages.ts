/**
 * The `packages` setting of one scope. The settings contract reads global and project deep-merged, but a
 * package belongs to exactly one of them, so the list is read from that scope's own settings.json.
 * A change is one read-modify-write inside pi's `<file>.lock` lock (settings-lock.ts): the entries are
 * read again under the lock, so concurrent installs each add their own entry and none is lost.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PackageScope } from "pi-host";
import { withSettingsLock, writeFileAtomically } from "./settings-lock.js";

/** A scope's settings file and its `packages` entries as stored (strings or pi's filter objects). */
export interface ScopePackages {
  scope: PackageScope;
  file: string;
  entries: unknown[];
}

/** Reads the `packages` entries of `<baseDir>/settings.json`; a missing file has none. */
export async function readScopePackages(scope: PackageScope, baseDir: string): Promise<ScopePackages> {
  const file = join(baseDir, "settings.json");
  const data = await readSettingsObject(file);
  const packages = data.packages;
  if (packages === undefined) return { scope, file, entries: [] };
  if (!Array.isArray(packages)) throw new Error(`${file}: "packages" must be an array of sources like ["npm:name"]`);
  return { scope, file, entries: packages };
}

/** One key of `<baseDir>/settings.json` alone (not merged with the other scope); undefined when absent. */
export async function readScopeSetting(baseDir: string, key: string): Promise<unknown> {
  return (await readSettingsObject(join(baseDir, "settings.json")))[key];
}

/**
 * Changes a scope's `packages` list: under the file's lock, reads the current entries, passes them to
 * `change`, and writes what it returns (the rest of the file untouched). Resolves with what was written.
 */
export async function updateScopePackages(
  _scope: PackageScope,
  baseDir: string,
  change: (entries: unknown[]) => unknown[],
): Promise<unknown[]> {
  const file = join(baseDir, "settings.json");
  return withSettingsLock(file, async () => {
    const data = await readSettingsObject(file);
    const current = data.packages;
    if (current !== undefined && !Array.isArray(current))
      throw new Error(`${file}: "packages" must be an array of sources like ["npm:name"]`);
    const next = change(current ?? []);
    data.packages = next;
    await writeFileAtomically(file, `${JSON.stringify(data, null, 2)}\n`);
    return next;
  });
}

/** The settings file as an object; a missing or empty file is `{}`, anything unparsable throws one line. */
async function readSettingsObject(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`${file}: cannot be read (${(error as Error).message})`);
  }
  if (text.trim() === "") return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message}); fix the file before installing packages`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new Error(`${file}: must hold a JSON object; fix the file before installing packages`);
  return data as Record<string, unknown>;
}
