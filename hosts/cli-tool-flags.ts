/** `--tools` and `--exclude-tools` values, read and checked as pi 1.6.0 reads them before anything starts. */

/** The entries of a comma-separated tool list, blanks dropped. */
export function splitToolList(value: string): string[] {
  return value
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

/** pi 1.6.0's rules for `--tools`: plain entries and `+name`/`-name` entries do not mix; changes take exact names. */
export function toolSelectionProblem(entries: string[]): string | undefined {
  const deltas = entries.filter((e) => e.startsWith("+") || e.startsWith("-"));
  if (deltas.length > 0 && deltas.length < entries.length)
    return `--tools mixes tool names (${entries.find((e) => !deltas.includes(e))}) with +name/-name changes (${deltas[0]}); use one or the other`;
  for (const delta of deltas) {
    if (delta.length === 1) return `--tools entry "${delta}" names no tool; write ${delta}name`;
    if (delta.includes("*"))
      return `--tools entry "${delta}" is a pattern; +name/-name take exact names (use --exclude-tools for patterns)`;
  }
  return undefined;
}
