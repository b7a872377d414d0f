/**
 * The footer under the editor: where the agent works (and the session's name), then the session's token
 * counts, cost and how full the context window is on the left, and the model and thinking level on the
 * right — what a user glances at to know what a prompt will cost and which model answers it.
 */
import { homedir } from "node:os";
import type { SessionState, SessionStats } from "pi-host";
import { cellWidth, truncate } from "./text.js";
import type { Theme } from "./theme.js";

/** Token counts as pi shows them: 950, 1.2k, 34k, 1.3M. */
export function formatTokens(n: number): string {
  if (n < 1_000) return String(n);
  if (n < 10_000) return `${(n / 1_000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1_000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** A folder with the home folder as "~". */
export function shortPath(path: string): string {
  const home = homedir();
  return home !== "/" && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}

/** The two footer rows. */
export function renderFooter(
  cwd: string,
  state: SessionState | undefined,
  stats: SessionStats | undefined,
  width: number,
  theme: Theme,
): string[] {
  const name = state?.sessionName ? ` • ${state.sessionName}` : "";
  const first = theme.fg("dim", truncate(` ${shortPath(cwd)}${name}`, width));

  const parts: string[] = [];
  if (stats !== undefined) {
    const t = stats.tokens;
    if (t.input) parts.push(`↑${formatTokens(t.input)}`);
    if (t.output) parts.push(`↓${formatTokens(t.output)}`);
    if (t.cacheRead) parts.push(`R${formatTokens(t.cacheRead)}`);
    if (t.cacheWrite) parts.push(`W${formatTokens(t.cacheWrite)}`);
    parts.push(`$${stats.cost.toFixed(3)}`);
    const usage = stats.contextUsage;
    if (usage !== undefined)
      parts.push(
        `${usage.percent === null ? "?" : usage.percent.toFixed(1)}%/${formatTokens(usage.contextWindow)} ctx`,
      );
  }
  const left = ` ${parts.join(" ")}`;
  const model = state?.model;
  const right = model ? `${model.id}${model.reasoning ? ` • ${state?.thinkingLevel ?? "off"}` : ""} ` : "no model ";
  const gap = width - cellWidth(left) - cellWidth(right);
  const second = gap >= 2 ? left + " ".repeat(gap) + right : truncate(left, width);
  return [first, theme.fg("dim", second)];
}
