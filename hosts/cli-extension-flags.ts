/**
 * Flags pi extensions register (`pi.registerFlag`): extensions load inside the kernel, after the
 * command line is parsed, so the host cannot know their names while parsing. A `--name` or
 * `--name=value` that is no flag of pi's and not a near miss of one (`--modle` stays an error with its
 * "did you mean") is set aside here and handed to plugins as `extensionFlags`; the plugin that runs
 * extensions checks them against what its extensions registered once they loaded. Before an agent run
 * starts, the CLI asks every `host/flag-owner` which flags it takes and refuses any other (exit 2), as pi
 * refuses an unknown option at startup (cli-extension-flag-check.ts). This file imports no contract, so
 * `pi --version` and `pi --help` parse their command line without loading the kernel.
 */
import { FLAGS } from "./cli-flag-table.js";
import { findFlag } from "./cli-flags.js";
import { closestSpelling } from "./edit-distance.js";

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
