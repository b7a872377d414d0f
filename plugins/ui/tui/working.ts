/**
 * The row under the transcript while the agent works or compacts: an indicator and a label, as other
 * plugins set them through `tui/app` (pi extensions' `setWorkingMessage`, `setWorkingVisible`,
 * `setWorkingIndicator`). Indicator frames are drawn as given, one per `intervalMs` (the frames the view
 * draws while output streams pick them by the clock).
 */
import type { ViewState } from "./state.js";
import { truncate } from "./text.js";
import type { Theme } from "./theme.js";

/** pi's default interval between spinner frames. */
const DEFAULT_INTERVAL_MS = 80;

/** The working row (none when hidden). */
export function workingRows(s: ViewState, theme: Theme, width: number, now = Date.now()): string[] {
  const working = s.working;
  if (!working.visible) return [];
  const label = s.compacting ? "Compacting… (esc to abort)" : `${working.message ?? "Working…"} (esc to interrupt)`;
  const frames = working.frames;
  const indicator =
    frames === undefined
      ? theme.fg("accent", "●")
      : (frames[
          Math.floor(now / Math.max(1, working.intervalMs ?? DEFAULT_INTERVAL_MS)) % Math.max(1, frames.length)
        ] ?? "");
  return [truncate(` ${indicator === "" ? "" : `${indicator} `}${theme.fg("muted", label)}`, width)];
}
