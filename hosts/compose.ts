/**
 * Composes a kernel from a distribution: reads the plugins.json layers in their order, resolves each
 * entry's `use` to code, and boots. Shared by the CLI and the SDK so both run the same distribution.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import {
  DistributionError,
  mergeDistributions,
  parseDistribution,
  readDistribution,
  useBaseDir,
  type DistributionLayer,
  type MergedEntry,
} from "./distribution.js";
import type { PluginEntry, PluginSource } from "../kernel/index.js";
import type { HostBootResult, Kernel, KernelOptions } from "./host-kernel.js";
import { hashSource } from "./source-policy.js";
import { installedPackageLayers, resolvePackageUses } from "./packages.js";
import { expandHome, projectDir } from "./paths.js";
import type { HostEnvironment, HostFlags } from "../contracts/host-environment.js";
import { HOST_PLUGIN_ID, hostPluginEntry } from "./host-plugin.js";
import { PluginTable, type PackageRoot } from "./plugin-table.js";
import { decideProjectTrust, type AskProjectTrust } from "./trust-decision.js";

/** Everything that decides which distribution runs. */
export interface DistributionInputs {
  cwd: string;
  agentDir: string;
  /** The package's own plugins.json. */
  defaultFile: string;
  /** Folder holding the compiled built-in plugins (`<name>/index.js`). */
  builtinDir: string;
  /** `--distribution FILE`, in order. */
  distributionFiles?: string[];
  /** `--plugin [id=]use`, in order. */
  pluginFlags?: string[];
  /** `--no-plugin id`, in order. */
  noPluginFlags?: string[];
  /** The user's per-run choices (`--model`, `--api-key`, `--session`, ...), handed to plugins through the host environment. */
  flags?: HostFlags;
  /** Config an embedder sets on entries it names itself (the SDK's `config` option); the last layer of all. */
  configOverrides?: ConfigOverride[];
  /**
   * `--approve`: the user vouches for this project for this run, so its protected files (settings,
   * `.pi/plugins.json`, packages, extensions, skills, ...) apply; nothing is remembered (that is `pi trust`).
   */
  approveProject?: boolean;
  /** `--no-approve`: the project is untrusted for this run, whatever was saved (`approveProject` wins if both are set; the CLI refuses both). */
  noApproveProject?: boolean;
  /** Asks the user when no flag or saved decision applies and `defaultProjectTrust` is "ask" (interactive mode only). */
  askProjectTrust?: AskProjectTrust;
}

/** Config keys a command-line flag sets on one distribution entry. */
export interface ConfigOverride {
  id: string;
  config: Record<string, unknown>;
  /** The flag, as the user typed it, for the notice when the distribution has no such entry. */
  flag: string;
}

/** The merged distribution, the layers it came from, and notices for the user (e.g. untrusted project). */
export interface ResolvedDistribution {
  entries: MergedEntry[];
  layers: string[];
  notices: string[];
  /** What the host's own plugin tells plugins (project trust); absent for a distribution resolved elsewhere. */
  environment?: HostEnvironment;
  /** The installed packages' folders, so the plugin table can say which plugins came from a package. */
  packages?: PackageRoot[];
}

/** The label of the layer made of command-line flags, as error messages name it. */
export const COMMAND_LINE = "command line";

/** Reads and merges every layer. Throws DistributionError on bad input. */
export async function resolveDistribution(inputs: DistributionInputs): Promise<ResolvedDistribution> {
  const notices: string[] = [];
  const layers: DistributionLayer[] = [];
  const push = (layer: DistributionLayer | undefined): void => {
    if (layer !== undefined) layers.push(layer);
  };
  const base = await readDistribution(inputs.defaultFile);
  if (base === undefined)
    throw new DistributionError(
      inputs.defaultFile,
      undefined,
      undefined,
      "the package's default distribution is missing; reinstall pi-host",
    );
  push(base);
  push(await readDistribution(join(inputs.agentDir, "plugins.json")));
  // Project trust first: it decides whether the project's packages and plugins.json apply at all.
  const override = inputs.approveProject === true ? true : inputs.noApproveProject === true ? false : undefined;
  const decision = await decideProjectTrust({
    agentDir: inputs.agentDir,
    cwd: inputs.cwd,
    override,
    ask: inputs.askProjectTrust,
  });
  if (decision.notice !== undefined) notices.push(decision.notice);
  const trusted = decision.trust.trusted;
  // Installed packages go on top of the user's distribution and under the project's (hosts/packages.ts).
  const installed = await installedPackageLayers({
    agentDir: inputs.agentDir,
    cwd: inputs.cwd,
    approveProject: trusted,
    projectTrusted: trusted,
  });
  layers.push(...installed.layers);
  notices.push(...installed.notices);
  const projectFile = join(projectDir(inputs.cwd), "plugins.json");
  if (existsSync(projectFile) && trusted) push(await readDistribution(projectFile));
  for (const file of inputs.distributionFiles ?? []) {
    const path = resolve(inputs.cwd, expandHome(file));
    const layer = await readDistribution(path);
    if (layer === undefined)
      throw new DistributionError(path, undefined, undefined, "no such file; check the --distribution path");
    push(layer);
  }
  let flags = commandLineLayer(inputs);
  if ((inputs.configOverrides ?? []).length > 0) {
    const known = new Set(
      mergeDistributions([...layers, flags])
        .filter((e) => e.enabled)
        .map((e) => e.id),
    );
    flags = withConfigOverrides(flags, inputs.configOverrides!, known, notices);
  }
  if (flags.entries.length > 0) push(flags);
  const entries = resolvePackageUses(mergeDistributions(layers), installed.packages);
  const environment: HostEnvironment = {
    cwd: resolve(inputs.cwd),
    agentDir: resolve(inputs.agentDir),
    projectTrust: decision.trust,
    flags: inputs.flags ?? {},
    packages: installed.contributions,
    notices,
  };
  const packages = installed.packages.map((p) => ({ source: p.source, root: p.root }));
  return { entries, layers: layers.map((l) => l.file), notices, environment, packages };
}

/**
 * Adds flag-set config to the command-line layer, merged into the entry a `--plugin` flag may already
 * have there. An override for a plugin that is not running (the user disabled or renamed it) is dropped
 * with a notice rather than failing the run.
 */
function withConfigOverrides(
  layer: DistributionLayer,
  overrides: ConfigOverride[],
  known: Set<string>,
  notices: string[],
): DistributionLayer {
  const entries = layer.entries.map((e) => ({ ...e }));
  for (const override of overrides) {
    if (!known.has(override.id)) {
      notices.push(`${override.flag} has no effect: the distribution has no enabled "${override.id}" plugin`);
      continue;
    }
    const existing = entries.find((e) => e.id === override.id);
    if (existing !== undefined) existing.config = { ...existing.config, ...override.config };
    else entries.push({ id: override.id, config: override.config });
  }
  return { ...layer, entries };
}

/** Turns `--plugin` / `--no-plugin` into one overlay layer. */
function commandLineLayer(inputs: DistributionInputs): DistributionLayer {
  const entries = (inputs.pluginFlags ?? []).map((spec) => {
    const eq = spec.indexOf("=");
    const use = eq > 0 ? spec.slice(eq + 1) : spec;
    const id = eq > 0 ? spec.slice(0, eq) : idFromUse(use);
    return { id, use: isPathLike(use) ? resolve(inputs.cwd, expandHome(use)) : use, enabled: true };
  });
  for (const id of inputs.noPluginFlags ?? [])
    entries.push({ id, use: undefined as unknown as string, enabled: false });
  // Validate through the same parser that checks files, so flags and files fail alike.
  return parseDistribution(COMMAND_LINE, JSON.stringify(entries));
}

/** The id a `--plugin` without `id=` gets: the built-in name, or the file/folder name of a path. */
export function idFromUse(use: string): string {
  if (use.startsWith("npm:"))
    return use
      .slice(4)
      .replace(/@[^/@]*$/, "")
      .replace(/^@/, "")
      .replace("/", "-");
  if (use.startsWith("git:")) return basename(use.replace(/@[^/@]*$/, "")).replace(/\.git$/, "");
  const name = basename(use, extname(use));
  return name === "index" ? basename(resolve(use, "..")) : name;
}

function isPathLike(use: string): boolean {
  return use.startsWith(".") || use.startsWith("/") || use.startsWith("~");
}

/** Resolves each enabled-or-not entry to where its code is. Throws DistributionError on an unknown `use`. */
export function resolveSources(entries: MergedEntry[], builtinDir: string): PluginEntry[] {
  return entries.map((entry) => ({
    id: entry.id,
    source: resolveUse(entry, builtinDir),
    config: entry.config,
    enabled: entry.enabled,
  }));
}

function resolveUse(entry: MergedEntry, builtinDir: string): PluginSource {
  const use = entry.use;
  if (use.startsWith("npm:") || use.startsWith("git:")) {
    throw new DistributionError(
      entry.useFrom,
      entry.id,
      "use",
      `package "${use}" is not installed; install it with "pi install ${use}"`,
    );
  }
  if (isPathLike(use)) {
    const path = resolve(useBaseDir(entry), expandHome(use));
    const file =
      existsSync(path) && statSync(path).isDirectory()
        ? ["index.ts", "index.mts", "index.js", "index.mjs"].map((f) => join(path, f)).find(existsSync)
        : path;
    if (file === undefined || !existsSync(file)) {
      throw new DistributionError(
        entry.useFrom,
        entry.id,
        "use",
        `no plugin at "${path}"; give a .ts/.js file or a folder with index.ts`,
      );
    }
    return { kind: "file", path: file };
  }
  const path = join(builtinDir, use, "index.js");
  if (!existsSync(path)) {
    const known = builtinNames(builtinDir);
    throw new DistributionError(
      entry.useFrom,
      entry.id,
      "use",
      `unknown plugin "${use}": not a built-in${known.length ? ` (${known.join(", ")})` : ""}, a path, npm: or git: source`,
    );
  }
  return { kind: "builtin", name: use, path };
}

/** The names of the compiled built-in plugins. */
export function builtinNames(builtinDir: string): string[] {
  if (!existsSync(builtinDir)) return [];
  return readdirSync(builtinDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(builtinDir, d.name, "index.js")))
    .map((d) => d.name)
    .sort();
}

/** A booted kernel, or the config errors that refused the boot, each as one line naming file, entry and field. */
export interface ComposedKernel {
  kernel: Kernel;
  boot: HostBootResult;
  configErrors: string[];
}

/**
 * Builds a kernel for a resolved distribution and boots it. `extraEntries` are plugins the host brings
 * itself (the SDK's inline plugin definitions): one with an id of the distribution replaces that entry in
 * place, others are added at the end.
 */
export async function composeKernel(
  distribution: ResolvedDistribution,
  builtinDir: string,
  options: KernelOptions = {},
  extraEntries: PluginEntry[] = [],
): Promise<ComposedKernel> {
  // The host's own plugin comes first, so everything the distribution or the embedder adds can use it.
  // A distribution entry of the same id cannot stand in for the host's facts; an embedder's extra entry can.
  const table = new PluginTable([HOST_PLUGIN_ID], distribution.packages);
  const hostEntries = distribution.environment === undefined ? [] : [hostPluginEntry(distribution.environment, table)];
  const resolved = resolveSources(distribution.entries, builtinDir).filter(
    (e) => !hostEntries.some((h) => h.id === e.id),
  );
  const entries = withExtraEntries([...hostEntries, ...resolved], extraEntries);
  const api = await import("./api.js");
  const hostModules = {
    "pi-host": api,
    "@sinclair/typebox": await import("@sinclair/typebox"),
    tsyringe: api.tsyringe,
  };
  const kernel = new api.Kernel({
    hashSource,
    ...options,
    virtualModules: { ...hostModules, ...options.virtualModules },
  });
  table.attach(kernel);
  const boot = await kernel.boot(entries);
  const configErrors = boot.configErrors.map((e) => {
    const from = distribution.entries.find((m) => m.id === e.pluginId)?.configFrom ?? COMMAND_LINE;
    return new DistributionError(from, e.pluginId, e.field, e.message).message;
  });
  return { kernel, boot, configErrors };
}

function withExtraEntries(entries: PluginEntry[], extra: PluginEntry[]): PluginEntry[] {
  const out = [...entries];
  for (const entry of extra) {
    const index = out.findIndex((e) => e.id === entry.id);
    if (index === -1) out.push(entry);
    else out[index] = entry;
  }
  return out;
}
