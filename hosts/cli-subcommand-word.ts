/**
 * Whether a command line may be a plugin's subcommand (`pi mcp login <server>`), decided from the words
 * alone: kept apart from cli-subcommand.ts, which composes the distribution, so that `pi --version` and
 * `pi --help` load nothing else.
 */

/** Words that could name a subcommand: a lowercase word, as pi's subcommands are. */
const WORD = /^[a-z][a-z0-9-]*$/;

/**
 * Whether `argv` may be a plugin subcommand: a word first, and no mode asked for before a `--` (what
 * follows `--` is the subcommand's to read, e.g. the pi flags `pi eval` passes to its runs).
 */
export function maybeSubcommand(argv: readonly string[]): boolean {
  const [first] = argv;
  if (first === undefined || !WORD.test(first)) return false;
  const cut = argv.indexOf("--");
  const flags = cut === -1 ? argv : argv.slice(0, cut);
  return !flags.some((a) => a === "-p" || a === "--print" || a === "--mode" || a.startsWith("--mode="));
}
