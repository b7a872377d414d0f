/**
 * Finds `--export <file>` in argv without loading anything (the parser validates the flag and keeps
 * the output as the first positional), so cli.ts can hand the run to cli-export.ts before composing.
 */

/** The session file after `--export` (or in `--export=<file>`), or undefined without the flag. */
export function exportFlagValue(argv: string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    if (arg === "--export") value = argv[++i];
    else if (arg.startsWith("--export=")) value = arg.slice("--export=".length);
  }
  return value;
}
