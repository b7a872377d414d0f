/**
 * What `pi list` says about a `packages` entry in pi's object form: that it is filtered (pi prints
 * `(filtered)`), and which of the package's resources its filter leaves on, by the same rule the host
 * loads by (kit/packages/package-filter.ts), so the list never shows a resource that does not load.
 */
import {
  applyDeltaOver,
  filterPackagePaths,
  type InstalledPackage,
  type KindPaths,
  packageFilterOf,
  type PackageEnabled,
} from "pi-host";

/** A listed package and the resources that load for it, kept so a project delta can narrow them. */
export interface ListedPackage {
  pkg: InstalledPackage;
  /** What loads for the entry (the declared paths when it has no filter). */
  enabled: PackageEnabled;
}

/**
 * The listing of `pkg` for its settings `entry`. `personal` is the global entry of the same package,
 * which a project entry with `autoload: false` is a delta over.
 */
export function withEntryFilter(
  pkg: InstalledPackage,
  entry: unknown,
  personal: ListedPackage | undefined,
): ListedPackage {
  const declared: KindPaths = {
    extensions: pkg.contributes.extensions,
    skills: pkg.contributes.skills,
    prompts: pkg.contributes.prompts,
    themes: pkg.contributes.themes,
  };
  const filter = packageFilterOf(entry);
  if (filter === undefined) return { pkg, enabled: declared };
  const enabled = !pkg.installed
    ? declared
    : filter.autoload === false && personal !== undefined
      ? applyDeltaOver(personal.enabled, declared, filter, pkg.path)
      : filterPackagePaths(declared, filter, pkg.path);
  return { pkg: { ...pkg, filtered: true, enabled }, enabled };
}
