/**
 * What `pi update` is asked to update, read from its arguments by pi 1.6.0's rules: no target (or
 * `--self`, `self`, `pi`) is pi itself; `--extensions` every installed package; `<source>` or
 * `--extension <source>` one package; `--all` pi and every package; `--models` the model catalog.
 * Conflicting choices are refused with pi's wording.
 */

/** The thing `pi update` updates. */
export type UpdateTarget =
  | { type: "self" }
  | { type: "extensions"; source: string | undefined }
  | { type: "all" }
  | { type: "model-catalog" };

/** A parsed `pi update` command line. */
export interface UpdateCommand {
  target: UpdateTarget;
  /** No target was named: pi prints that packages are skipped, then updates itself. */
  extensionsSkippedNote: boolean;
  /** `--force`: reinstall pi even when it is the newest version. */
  force: boolean;
  /** `-a` / `-na`: trust, or do not trust, the project for this command. */
  approve: boolean | undefined;
  help: boolean;
}

/** Thrown for arguments `pi update` does not take; the message is one line saying what to do. */
export class UpdateUsageError extends Error {}

/** The usage line of `pi update`. */
export const UPDATE_USAGE =
  "pi update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [--approve|--no-approve] [--force]";

/** Reads `pi update`'s arguments (the words after `update`). */
export function parseUpdateCommand(args: readonly string[]): UpdateCommand {
  const flags = { self: false, extensions: false, models: false, all: false, force: false, help: false };
  let approve: boolean | undefined;
  let source: string | undefined;
  let extension: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-h" || arg === "--help") flags.help = true;
    else if (arg === "--self") flags.self = true;
    else if (arg === "--extensions") flags.extensions = true;
    else if (arg === "--models") flags.models = true;
    else if (arg === "--all") flags.all = true;
    else if (arg === "--force") flags.force = true;
    else if (arg === "-a" || arg === "--approve") approve = true;
    else if (arg === "-na" || arg === "--no-approve") approve = false;
    else if (arg === "--extension") {
      const value = args[i + 1];
      if (value === undefined || value.startsWith("-")) throw usage("Missing value for --extension.");
      if (extension !== undefined) throw usage("--extension can only be provided once");
      extension = value;
      i++;
    } else if (arg.startsWith("-") && arg !== "-") throw usage(`Unknown option ${arg} for "update".`);
    else if (source === undefined) source = arg;
    else throw usage(`Unexpected argument ${arg}.`);
  }
  const command = { force: flags.force, approve, help: flags.help, extensionsSkippedNote: false };
  if (flags.all && (flags.self || flags.extensions || flags.models || extension !== undefined))
    throw usage("--all cannot be combined with --self, --extensions, --models, or --extension");
  if (flags.all && source !== undefined) throw usage("--all cannot be combined with a positional source");
  if (flags.models) {
    if (flags.self || flags.extensions || extension !== undefined)
      throw usage("--models cannot be combined with --self, --extensions, --all, or --extension");
    if (source !== undefined) throw usage("--models cannot be combined with a positional source");
    return { ...command, target: { type: "model-catalog" } };
  }
  if (extension !== undefined) {
    if (flags.self || flags.extensions)
      throw usage("--extension cannot be combined with --self, --extensions, or --all");
    if (source !== undefined) throw usage("--extension cannot be combined with a positional source");
    return { ...command, target: { type: "extensions", source: extension } };
  }
  if (source === "self" || source === "pi")
    return { ...command, target: flags.extensions ? { type: "all" } : { type: "self" } };
  if (source !== undefined) {
    if (flags.self || flags.extensions)
      throw usage("positional update targets cannot be combined with --self, --extensions, or --all");
    return { ...command, target: { type: "extensions", source } };
  }
  if (flags.all || (flags.self && flags.extensions)) return { ...command, target: { type: "all" } };
  if (flags.self) return { ...command, target: { type: "self" } };
  if (flags.extensions) return { ...command, target: { type: "extensions", source: undefined } };
  return { ...command, target: { type: "self" }, extensionsSkippedNote: true };
}

/** Whether the target includes pi itself. */
export function includesSelf(target: UpdateTarget): boolean {
  return target.type === "self" || target.type === "all";
}

/** Whether the target includes installed packages. */
export function includesPackages(target: UpdateTarget): boolean {
  return target.type === "extensions" || target.type === "all";
}

/** pi's help for `pi update`. */
export const UPDATE_HELP = `Usage:
  ${UPDATE_USAGE}

Update pi, installed packages, or model catalogs.

Options:
  --self                  Update pi only (default when no target is given)
  --extensions            Update installed packages only
  --models                Refresh model catalogs only
  --all                   Update pi and installed packages
  --extension <source>    Update one package only
  -a, --approve           Trust project-local files for this command
  -na, --no-approve       Ignore project-local files for this command
  --force                 Reinstall pi even if the current version is latest

Short forms:
  pi update                Update pi only
  pi update --all          Update pi and all extensions
  pi update --models       Refresh model catalogs only
  pi update <source>       Update one package
  pi update pi             Update pi only (self works as alias to pi)

pi's newest version comes from the npm registry (\`npm view <name>@latest version\`, through the
"npmCommand" setting; npm's own registry config, e.g. NPM_CONFIG_REGISTRY, points it elsewhere).
PI_SELF_UPDATE_COMMAND or the "selfUpdateCommand" setting replaces the install step
({packageName}, {version} and {installSpec} are filled in).
`;

function usage(message: string): UpdateUsageError {
  return new UpdateUsageError(`${message} Usage: ${UPDATE_USAGE}`);
}
