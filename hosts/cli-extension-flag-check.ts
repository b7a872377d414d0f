/**
 * The check before an agent run that every flag set aside for extensions (cli-extension-flags.ts) is
 * registered by some `host/flag-owner`, as pi refuses an unknown option at startup. It is a file of its
 * own, away from the splitting, so that parsing the command line loads no contract.
 */
import { FlagOwnerContract } from "../contracts/host-environment.js";
import type { Kernel } from "../kernel/index.js";
import { FLAGS } from "./cli-flag-table.js";
import { nearestSpelling } from "./edit-distance.js";

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
