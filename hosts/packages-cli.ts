/**
 * `pi install <source> [-l]`, `pi remove <source> [-l]`, `pi update [target]`, `pi list [--json]`.
 * `pi update` with no target updates pi itself, as in pi 1.6.0 (hosts/update-target.ts, hosts/self-update.ts).
 * These boot only the built-ins that provide the packages contract and what it needs (found by contract,
 * hosts/builtin-providers.ts), never the user's distribution, so a package that breaks the distribution
 * can always be removed. Progress goes to stderr one line per step; the outcome goes to stdout.
 * Ctrl+C, SIGTERM or SIGHUP cancels a running install: npm/git's process group is ended, the staging
 * folder removed, and nothing changes.
 *
 * Trust: a project's packages and its `npmCommand` are code the cloned repository chose, so they act
 * only in a trusted project (`pi trust`, or `--approve` for one run); describing a package of an
 * untrusted project never evaluates its modules (ids come from static reading, see plugin-id.ts).
 */
import { basename, dirname, join, relative, resolve } from "node:path";
import {
  PackagesContract,
  type InstalledPackage,
  type PackageEnabled,
  type PackageManager,
} from "../contracts/packages.js";
import { PackageSourceError } from "../kit/packages/package-source.js";
import type { Handle } from "../kernel/index.js";
import type { Kernel } from "./host-kernel.js";
import { HostEnvironmentContract } from "../contracts/host-environment.js";
import { HostPluginsContract } from "../contracts/host-plugins.js";
import { HOST_PLUGIN_ID, hostPluginEntry } from "./host-plugin.js";
import { PluginTable } from "./plugin-table.js";
import { pluginEntryFile, pluginIdLoader, type PluginIdLoader } from "./packages.js";
import { staticPluginId } from "./plugin-id.js";
import { isTrusted } from "./trust.js";
import { packageUpdateSummary } from "./update-summary.js";
import {
  includesPackages,
  includesSelf,
  parseUpdateCommand,
  UPDATE_HELP,
  type UpdateCommand,
  type UpdateTarget,
} from "./update-target.js";

const EXIT_FAILURE = 1;
const EXIT_BAD_INPUT = 2;

/** Where the command runs. */
export interface PackageCommandPlace {
  agentDir: string;
  cwd: string;
  /** The compiled built-in plugins, `<name>/index.js`. */
  builtinDir: string;
  /** The package's default plugins.json: the order in which built-ins are asked for the contracts needed. */
  defaultFile: string;
  /** This copy's package folder (with package.json), which `pi update` updates. */
  packageRoot: string;
}

interface PackageCommand {
  name: "install" | "remove" | "update" | "list";
  source: string | undefined;
  local: boolean;
  json: boolean;
  help: boolean;
  /** `-a/--approve`: trusted for this one command; `-na/--no-approve`: untrusted even if trusted (pi's flags). */
  approve: boolean | undefined;
}

/** The signals that cancel a running command, with the exit code a shell expects after each. */
const CANCEL_SIGNALS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/** Whether PI_OFFLINE is set (the CLI sets it for `--offline`). */
function offline(): boolean {
  return ["1", "true", "yes"].includes(process.env.PI_OFFLINE?.trim().toLowerCase() ?? "");
}

/** A step offline mode leaves out, said on stdout as pi does; not an error. */
function skipped(line: string): number {
  process.stdout.write(`${line}\n`);
  return 0;
}

/** Runs one package command; resolves with the exit code. */
export async function runPackageCommand(argv: string[], place: PackageCommandPlace): Promise<number> {
  let update: UpdateCommand | undefined;
  if (argv[0] === "update") {
    try {
      update = parseUpdateCommand(argv.slice(1));
    } catch (error) {
      return fail((error as Error).message, EXIT_BAD_INPUT);
    }
    if (update.help) {
      process.stdout.write(UPDATE_HELP);
      return 0;
    }
    if (update.target.type === "model-catalog") {
      if (offline()) return skipped("Skipped the model catalog refresh (offline mode)");
      return (await import("./models-update.js")).updateModels(place.agentDir);
    }
    if (update.extensionsSkippedNote)
      process.stdout.write("Extensions are skipped. Run pi update --extensions to update extensions.\n");
  }
  let command: PackageCommand;
  try {
    command =
      update === undefined
        ? parsePackageCommand(argv)
        : {
            name: "update",
            source: packageSource(update.target),
            local: false,
            json: false,
            help: false,
            approve: update.approve,
          };
  } catch (error) {
    return fail((error as Error).message, EXIT_BAD_INPUT);
  }
  if (command.help) {
    process.stdout.write(usage(command.name));
    return 0;
  }
  if (update !== undefined && !includesPackages(update.target)) return updateSelfHere(update, place);
  // pi's offline mode: package updates are skipped (no npm or git request); pi itself cannot be checked.
  if (update !== undefined && offline()) {
    skipped("Skipped package updates (offline mode)");
    return includesSelf(update.target) ? updateSelfHere(update, place) : 0;
  }
  const controller = new AbortController();
  let cancelledBy: keyof typeof CANCEL_SIGNALS | undefined;
  const cancels = (Object.keys(CANCEL_SIGNALS) as Array<keyof typeof CANCEL_SIGNALS>).map((signal) => {
    const cancel = (): void => {
      cancelledBy ??= signal;
      controller.abort();
    };
    process.on(signal, cancel);
    return () => process.off(signal, cancel);
  });
  let booted: Awaited<ReturnType<typeof bootPackageManager>>;
  try {
    booted = await bootPackageManager(place);
  } catch (error) {
    for (const off of cancels) off();
    throw error;
  }
  const { kernel, manager } = booted;
  const progress = (line: string): void => void process.stderr.write(`${line}\n`);
  const projectTrusted = command.approve ?? (await isTrusted(place.agentDir, place.cwd));
  const describer = packageDescriber(projectTrusted);
  try {
    switch (command.name) {
      case "install": {
        const installed = await manager.api.install(command.source!, {
          cwd: place.cwd,
          local: command.local,
          onProgress: progress,
          signal: controller.signal,
          projectTrusted,
        });
        process.stdout.write(
          `Installed ${installed.source}${installed.version !== undefined ? ` ${installed.version}` : ""} (${installed.scope})\n`,
        );
        process.stdout.write(await describePackage(installed, await describer(installed)));
        return 0;
      }
      case "remove": {
        const removed = await manager.api.remove(command.source!, {
          cwd: place.cwd,
          local: command.local,
          onProgress: progress,
          signal: controller.signal,
          projectTrusted,
        });
        if (!removed)
          return fail(
            `${command.source} is not in the ${command.local ? "project" : "global"} packages setting; see "pi list"`,
            EXIT_FAILURE,
          );
        process.stdout.write(`Removed ${command.source}\n`);
        return 0;
      }
      case "update": {
        const outcomes = await manager.api.update(command.source, {
          cwd: place.cwd,
          onProgress: progress,
          signal: controller.signal,
          projectTrusted,
        });
        process.stdout.write(packageUpdateSummary(command.source, outcomes, progress));
        return update !== undefined && includesSelf(update.target) ? await updateSelfHere(update, place) : 0;
      }
      case "list": {
        const packages = await manager.api.list(place.cwd);
        if (command.json)
          process.stdout.write(
            `${JSON.stringify(packages, (_key, value: unknown) => (value === undefined ? null : value), 2)}\n`,
          );
        else process.stdout.write(await formatList(packages, place, describer, projectTrusted));
        return 0;
      }
      default:
        return fail(`unknown package command "${String(command.name)}"`, EXIT_BAD_INPUT);
    }
  } catch (error) {
    if (cancelledBy !== undefined)
      return fail(`pi ${command.name} cancelled by ${cancelledBy}; nothing was changed`, CANCEL_SIGNALS[cancelledBy]);
    return fail((error as Error).message, error instanceof PackageSourceError ? EXIT_BAD_INPUT : EXIT_FAILURE);
  } finally {
    await kernel.shutdown();
    for (const off of cancels) off();
  }
}

function parsePackageCommand(argv: string[]): PackageCommand {
  const [word, ...rest] = argv;
  const name = word === "uninstall" ? "remove" : (word as PackageCommand["name"]);
  const command: PackageCommand = {
    name,
    source: undefined,
    local: false,
    json: false,
    help: false,
    approve: undefined,
  };
  for (const arg of rest) {
    if (arg === "-l" || arg === "--local") command.local = true;
    else if (arg === "-a" || arg === "--approve") command.approve = true;
    else if (arg === "-na" || arg === "--no-approve") command.approve = false;
    else if (arg === "--json" && name === "list") command.json = true;
    else if (arg === "-h" || arg === "--help") command.help = true;
    else if (arg.startsWith("-") && arg !== "-")
      throw new Error(`unknown option ${arg} for "pi ${word}"; usage: ${usageLine(name)}`);
    else if (command.source === undefined && name !== "list") command.source = arg;
    else throw new Error(`unexpected argument "${arg}"; usage: ${usageLine(name)}`);
  }
  if (command.local && (name === "update" || name === "list"))
    throw new Error(`-l is for install and remove; "pi ${name}" covers the global and project packages`);
  if (!command.help && command.source === undefined && (name === "install" || name === "remove"))
    throw new Error(`missing package source; usage: ${usageLine(name)}`);
  return command;
}

function usageLine(name: PackageCommand["name"]): string {
  if (name === "install") return "pi install <source> [-l] [-a|-na]";
  if (name === "remove") return "pi remove <source> [-l]";
  return "pi list [--json] [-a|-na]";
}

function usage(name: PackageCommand["name"]): string {
  if (name === "update") return UPDATE_HELP;
  const about = {
    install: "Install a package and add it to the packages setting (-l: the project's .pi/settings.json).",
    remove: "Remove a package: its install folder and its packages setting entry (-l: the project's).",
    list: "List the packages of the global and project settings: version, folder and what each contributes.",
  }[name];
  return `Usage: ${usageLine(name)}\n\n${about}\n\n-a, --approve: trust this project for this one command (its packages and "npmCommand" setting apply); -na, --no-approve: do not, even if it is trusted.\n\nSources: npm:<name>[@version], git:<host>/<path>[@ref], https://, ssh://, git:// URLs, or a local path.\n`;
}

/**
 * Boots the package commands' own small distribution: the built-ins that provide the packages contract
 * and what it requires (settings), found by contract, next to the host's own plugin, which tells them
 * the agent folder (and, as no trust was decided for this, that the project's files do not apply).
 */
async function bootPackageManager(
  place: PackageCommandPlace,
): Promise<{ kernel: Kernel; manager: Handle<PackageManager> }> {
  const { formatLifecycleError } = await import("./kernel-report.js");
  const { Kernel } = await import("./host-kernel.js");
  const { builtinProvidersOf } = await import("./builtin-providers.js");
  const builtins = await builtinProvidersOf([PackagesContract], place, [HostEnvironmentContract, HostPluginsContract]);
  const kernel = new Kernel();
  const table = new PluginTable([HOST_PLUGIN_ID]);
  table.attach(kernel);
  const environment = {
    cwd: resolve(place.cwd),
    agentDir: resolve(place.agentDir),
    projectTrust: { trusted: false, source: "default" as const },
  };
  const boot = await kernel.boot([hostPluginEntry(environment, table), ...builtins]);
  if (!boot.ok || boot.errors.length > 0) {
    await kernel.shutdown();
    const reasons = [
      ...boot.configErrors.map((e) => `${e.pluginId}: ${e.field}: ${e.message}`),
      ...boot.errors.map(formatLifecycleError),
    ];
    throw new Error(`the package manager did not start: ${reasons.join("; ")}`);
  }
  return { kernel, manager: kernel.use(PackagesContract) };
}

/**
 * How a package's plugin ids are read for display: by evaluating the plugin (as start-up will) only for
 * packages whose code runs anyway — global ones, and project ones in a trusted project; otherwise by
 * reading the source text, which runs nothing.
 */
function packageDescriber(projectTrusted: boolean): (pkg: InstalledPackage) => Promise<PluginIdLoader> {
  let evaluating: Promise<PluginIdLoader> | undefined;
  const readOnly: PluginIdLoader = async (file) => staticPluginId(file);
  return (pkg) => {
    if (pkg.scope === "project" && !projectTrusted) return Promise.resolve(readOnly);
    evaluating ??= pluginIdLoader();
    return evaluating;
  };
}

/** `pi list` for people: user (global) packages, then project packages, under pi 1.6.0's headings, each with folder and contributions. */
async function formatList(
  packages: InstalledPackage[],
  place: PackageCommandPlace,
  describer: (pkg: InstalledPackage) => Promise<PluginIdLoader>,
  projectTrusted: boolean,
): Promise<string> {
  if (packages.length === 0) return "No packages installed.\n";
  let out = "";
  for (const scope of ["global", "project"] as const) {
    const ofScope = packages.filter((p) => p.scope === scope);
    if (ofScope.length === 0) continue;
    const file = scope === "global" ? join(place.agentDir, "settings.json") : join(place.cwd, ".pi", "settings.json");
    out += `${out === "" ? "" : "\n"}${scope === "global" ? "User" : "Project"} packages (${file}):\n`;
    if (scope === "project" && !projectTrusted)
      out += `  (not used: this project is not trusted; run "pi trust" here, or pass --approve)\n`;
    for (const pkg of ofScope) out += await describePackage(pkg, await describer(pkg));
  }
  return out;
}

/** A package's lines: source and version, folder, contributions, problems. */
async function describePackage(pkg: InstalledPackage, loadId: PluginIdLoader): Promise<string> {
  const version = [
    pkg.version,
    pkg.ref !== undefined ? `ref ${pkg.ref}` : undefined,
    pkg.commit?.slice(0, 7),
    pkg.pinned ? "pinned" : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  let out = `  ${pkg.source}${pkg.filtered ? " (filtered)" : ""}${version !== "" ? `  (${version})` : ""}\n`;
  if (pkg.path !== "") out += `    ${pkg.path}\n`;
  const at = (path: string): string => relative(pkg.path, path) || ".";
  const plugins: string[] = [];
  for (const path of pkg.contributes.plugins) {
    const file = pluginEntryFile(path);
    const id = file === undefined ? undefined : await loadId(file);
    plugins.push(`${id ?? "?"} (${at(path)})`);
  }
  const resources =
    pkg.enabled === undefined
      ? (["extensions", "skills", "prompts", "themes"] as const).map((kind): [string, string[]] => [
          kind,
          pkg.contributes[kind].map(at),
        ])
      : await filteredResources(pkg, pkg.enabled, at);
  const parts: Array<[string, string[]]> = [
    ["plugins", plugins],
    ...resources,
    ["distribution", pkg.contributes.distribution === undefined ? [] : [at(pkg.contributes.distribution)]],
  ];
  for (const [label, items] of parts) if (items.length > 0) out += `    ${label}: ${items.join(", ")}\n`;
  for (const problem of pkg.problems) out += `    problem: ${problem}\n`;
  return out;
}

/**
 * A filtered entry's resources of each type: the ones its filter leaves on, by file (a skill by its
 * folder), with how many of the package's files of that type that is when not all; "none" when the
 * filter switches a type off.
 */
async function filteredResources(
  pkg: InstalledPackage,
  enabled: PackageEnabled,
  at: (path: string) => string,
): Promise<Array<[string, string[]]>> {
  const { FILTER_KINDS, resourceFiles } = await import("../kit/packages/package-filter.js");
  const shown = (file: string): string => at(basename(file) === "SKILL.md" ? dirname(file) : file);
  return FILTER_KINDS.map((kind): [string, string[]] => {
    const all = resourceFiles(pkg.contributes[kind], kind);
    const on = new Set(resourceFiles(enabled[kind], kind));
    const kept = all.filter((file) => on.has(file));
    if (kept.length === all.length) return [kind, enabled[kind].map(at)];
    return [kind, [`${kept.length === 0 ? "none" : kept.map(shown).join(", ")} (${kept.length} of ${all.length} on)`]];
  });
}

/** The package `pi update` names, if one: `pi update <source>` or `--extension <source>`. */
function packageSource(target: UpdateTarget): string | undefined {
  return target.type === "extensions" ? target.source : undefined;
}

/** `pi update` for pi itself (hosts/self-update.ts). */
async function updateSelfHere(update: UpdateCommand, place: PackageCommandPlace): Promise<number> {
  const { updateSelf } = await import("./self-update.js");
  return updateSelf({ packageRoot: place.packageRoot, agentDir: place.agentDir, force: update.force });
}

function fail(message: string, code: number): number {
  process.stderr.write(`pi: ${message}\n`);
  return code;
}
