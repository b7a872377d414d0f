/**
 * Flags pi extensions register (`pi.registerFlag`): extensions load inside the kernel, after the
 * command line is parsed, so the host cannot know their names while parsing. A `--name` or
 * `--name=value` that is no flag of pi's and not a near miss of one (`--modle` stays an error with its
 * "did you mean") is set aside here and handed to plugins as `extensionFlags`; the plugin that runs
 * extensions checks them against what its extensions registered once they loaded. Before an agent run
 * starts, the CLI asks every `host/flag-owner` which flags it takes and refuses any other (exit 2), as pi
 * refuses an unknown option at startup.
 */
import { FlagOwnerContract } from "../contracts/host-environment.js";
import type { Kernel } from "../kernel/index.js";
import { FLAGS } from "./cli-flag-table.js";
import { findFlag } from "./cli-flags.js";
import { closestSpelling, nearestSpelling } from "./edit-distance.js";

/** argv without the extension flags, and those flags: `true` for `--name`, the text for `--name=value`. */
export function splitExtensionFlags(argv: string[]): { argv: string[]; flags: Record<string, string | boolean> } {
  const rest: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const match = /^--([A-Za-z][\w-]*)(?:=(.*))?$/s.exec(arg);
    if (match === null || findFlag(`--${match[1]}`) !== undefined || nearMiss(match[1]!)) {
      rest.push(arg);
      // A known flag's value is not a flag of ours even when it looks like one.
      const spec = match === null ? findFlag(arg) : findFlag(`--${match[1]}`);
      if (spec?.value !== undefined && !spec.inlineValue && !spec.optionalValue && match?.[2] === undefined) {
        if (i + 1 < argv.length) rest.push(argv[++i]!);
      }
      continue;
    }
    flags[match[1]!] = match[2] ?? true;
  }
  return { argv: rest, flags };
}

/** Whether `name` looks like a misspelling of one of pi's flags (then the parser reports it). */
function nearMiss(name: string): boolean {
  return (
    closestSpelling(
      name,
      FLAGS.map((f) => f.name),
    ) !== undefined
  );
}

/**
 * The usage error for the first of `given` (extension flag names) that no flag owner registers, naming
 * the closest known flag; undefined when every one is taken. Owners that fail to answer take none.
 */
export async function unknownExtensionFlag(kernel: Kernel, given: string[]): Promise<string | undefined> {
  if (given.length === 0) return undefined;
  const registered = new Set<string>();
  for (const owner of kernel.useAll(FlagOwnerContract).list()) {
    try {
      for (const name of await owner.api.registeredFlags()) registered.add(name);
    } catch {
      // An owner that cannot say takes no flag.
    }
  }
  const unknown = given.find((name) => !registered.has(name));
  if (unknown === undefined) return undefined;
  const closest = nearestSpelling(`--${unknown}`, [
    ...FLAGS.map((f) => `--${f.name}`),
    ...[...registered].map((n) => `--${n}`),
  ]);
  return `unknown flag --${unknown} (no extension registers it); the closest known flag is ${closest}; run "pi --help" for the options`;
}

/**
 * Lets every flag owner load what adds providers and models to the catalog (pi extensions), before
 * `--list-models` lists it or a `--model` the catalog does not know yet is resolved. Owners that fail
 * add nothing; their errors reach the user as notices when the run starts.
 */
export async function loadCatalogRegistrations(kernel: Kernel): Promise<void> {
  for (const owner of kernel.useAll(FlagOwnerContract).list()) {
    try {
      await owner.api.loadRegistrations();
    } catch {
      // An owner that cannot load registers nothing.
    }
  }
}
