/**
 * The installed packages' part of `pi config`: one group per package (`<source> (user)` /
 * `<source> (project)`, as pi heads them) listing every resource the package declares, on when the
 * entry's filter (pi's object form, kit/packages/package-filter.ts — the rule the host loads by) leaves
 * it on; and the settings change a switch makes: the entry turned into the object form with a `+path`
 * or `-path` relative to the package root, back to the plain source when no filter is left.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  applyDeltaOver,
  FILTER_KINDS,
  filterPackagePaths,
  installedPackagePath,
  type KindPaths,
  packageContributions,
  packageFilterOf,
  packageIdentity,
  packagePattern,
  parsePackageSource,
  resourceFiles,
  settingEntrySource,
} from "pi-host";
import type { ResourceGroup, ResourceItem } from "./catalog.js";

/** Which package a listed resource belongs to. */
export interface PackageRef {
  /** The entry's source text, as the settings hold it. */
  source: string;
  /** The settings file the entry is in. */
  scope: "user" | "project";
  /** The installed package's folder, which the filter's paths are relative to. */
  root: string;
}

/** The raw `packages` list of a settings file ([] when it has none). */
export function readPackageEntries(file: string): unknown[] {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as { packages?: unknown };
    return Array.isArray(data.packages) ? data.packages : [];
  } catch {
    return [];
  }
}

/**
 * The groups of the packages of the global settings and, when `projectDir` is given, the project's:
 * a project entry replaces the global one of the same package, or with `autoload: false` switches
 * its resources as a delta (listed under the global entry, which it narrows).
 */
export function listPackageGroups(agentDir: string, projectDir: string | undefined): ResourceGroup[] {
  type Found = { ref: PackageRef; identity: string; declared: KindPaths; loaded: KindPaths };
  const found: Found[] = [];
  const scopes: Array<["user" | "project", string]> = [["user", agentDir]];
  if (projectDir !== undefined) scopes.push(["project", projectDir]);
  for (const [scope, base] of scopes) {
    for (const entry of readPackageEntries(join(base, "settings.json"))) {
      const source = settingEntrySource(entry);
      if (source === undefined) continue;
      let parsed: ReturnType<typeof parsePackageSource>;
      try {
        parsed = parsePackageSource(source);
      } catch {
        continue; // the host reports a bad source when it loads packages
      }
      const identity = packageIdentity(parsed, base);
      const filter = packageFilterOf(entry);
      const personal = found.find((f) => f.ref.scope === "user" && f.identity === identity);
      if (scope === "project" && personal !== undefined) {
        if (filter?.autoload === false) {
          personal.loaded = applyDeltaOver(personal.loaded, personal.declared, filter, personal.ref.root);
          continue;
        }
        found.splice(found.indexOf(personal), 1);
      }
      const root = installedPackagePath(parsed, base);
      if (!existsSync(root)) continue;
      const isFile = statSync(root).isFile();
      const { contributes } = packageContributions(
        root,
        isFile ? undefined : readJson(join(root, "package.json")),
        isFile ? [] : folders(root),
        isFile,
      );
      const declared: KindPaths = {
        extensions: contributes.extensions,
        skills: contributes.skills,
        prompts: contributes.prompts,
        themes: contributes.themes,
      };
      found.push({
        ref: { source, scope, root },
        identity,
        declared,
        loaded: filterPackagePaths(declared, filter, root),
      });
    }
  }
  const groups: ResourceGroup[] = [];
  for (const { ref, declared, loaded } of found) {
    const items: ResourceItem[] = [];
    for (const kind of FILTER_KINDS) {
      const on = new Set(resourceFiles(loaded[kind], kind));
      for (const path of resourceFiles(declared[kind], kind).sort()) {
        items.push({
          kind,
          scope: ref.scope,
          path,
          baseDir: ref.root,
          name: displayName(kind, path),
          enabled: on.has(path),
          inherited: on.has(path),
          package: ref,
        });
      }
    }
    if (items.length > 0) groups.push({ label: `${ref.source} (${ref.scope})`, scope: ref.scope, items });
  }
  return groups;
}

/**
 * The `packages` list after switching one package resource on or off, as pi writes it: the entry in
 * object form, earlier switches of that path dropped, then `+path` / `-path`; a type left with no
 * entries is removed, and an entry with no filter left is the plain source again. Unchanged when the
 * list has no entry with that source, unless `asDelta` (a global package switched from the project's
 * settings), which adds pi's `{ "source", "autoload": false }` delta entry.
 */
export function withPackageSwitch(
  entries: readonly unknown[],
  item: ResourceItem,
  enabled: boolean,
  asDelta = false,
): unknown[] {
  const ref = item.package;
  if (ref === undefined) return [...entries];
  let index = entries.findIndex((e) => settingEntrySource(e) === ref.source);
  if (index === -1 && !asDelta) return [...entries];
  const current = index === -1 ? { source: ref.source, autoload: false } : entries[index];
  if (index === -1) index = entries.length;
  const entry: Record<string, unknown> =
    typeof current === "string" ? { source: current } : { ...(current as Record<string, unknown>) };
  const pattern = packagePattern(ref.root, item.path);
  const list = Array.isArray(entry[item.kind]) ? (entry[item.kind] as unknown[]) : [];
  const kept = list.filter((p) => typeof p !== "string" || !("+-!".includes(p[0] ?? "") && p.slice(1) === pattern));
  kept.push(`${enabled ? "+" : "-"}${pattern}`);
  entry[item.kind] = kept;
  const out = [...entries];
  out[index] = FILTER_KINDS.some((k) => entry[k] !== undefined) ? entry : entry.source;
  return out;
}

/** pi's display name: the file name; a skill's folder; an extension in a subfolder as `folder/file`. */
function displayName(kind: ResourceItem["kind"], path: string): string {
  const file = basename(path);
  const parent = basename(dirname(path));
  if (kind === "extensions" && parent !== "extensions") return `${parent}/${file}`;
  if (kind === "skills" && file === "SKILL.md") return parent;
  return file;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function folders(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}
