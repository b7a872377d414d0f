/**
 * What `pi update --extensions` prints once the packages are updated, in pi 1.6.0's words: "Packages
 * are already up to date" (or "<source> is already up to date"), else "Updated N packages:" with one
 * "<source> <from> -> <to>" line each. Packages that stayed (pinned, current, local) are said on the
 * progress stream, one line each, so the outcome on stdout reads as pi's.
 */
import type { UpdateOutcome } from "../contracts/packages.js";

/** The summary for stdout; the per-package lines of packages that did not move go to `progress`. */
export function packageUpdateSummary(
  source: string | undefined,
  outcomes: readonly UpdateOutcome[],
  progress: (line: string) => void,
): string {
  const updated = outcomes.filter((o) => o.status === "updated");
  for (const outcome of outcomes) if (outcome.status !== "updated") progress(stayedLine(outcome));
  if (updated.length === 0) return `${source === undefined ? "Packages are" : `${source} is`} already up to date\n`;
  const lines = updated.map((o) => `  ${o.source} ${o.from === undefined ? "" : `${short(o.from)} -> `}${short(o.to)}`);
  return `Updated ${updated.length} package${updated.length === 1 ? "" : "s"}:\n${lines.join("\n")}\n`;
}

/** A package that did not move, and why. */
function stayedLine(outcome: UpdateOutcome): string {
  if (outcome.status === "pinned") return `Pinned ${outcome.source} stays at ${short(outcome.from)}`;
  if (outcome.status === "current") return `Current ${outcome.source} is at the newest ${short(outcome.from)}`;
  return `Local ${outcome.source} is used where it is; nothing to update`;
}

/** A git commit as its short form; a version as it is. */
function short(version: string | undefined): string {
  return version !== undefined && /^[0-9a-f]{40}$/.test(version) ? version.slice(0, 7) : (version ?? "?");
}
