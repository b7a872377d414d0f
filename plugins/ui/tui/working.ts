/**
 * Rows of the live area around the editor: the row under the transcript while the agent works or
 * compacts (an indicator and a label, as other plugins set them through `tui/app`: pi extensions'
 * `setWorkingMessage`, `setWorkingVisible`, `setWorkingIndicator`; frames drawn as given, one per
 * `intervalMs`, picked by the clock), and the completion list under the editor — the view's own or a
 * replacement editor another plugin draws.
 */
import type { ViewState } from "./state.js";
import { padTo, truncate } from "./text.js";
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

/** The open completion list under the editor: a page of 8 around the selection (none when closed). */
export function completionRows(s: ViewState, width: number, theme: Theme): string[] {
  const completion = s.completion;
  if (completion === null) return [];
  const rows: string[] = [];
  const page = Math.min(8, completion.items.length);
  const first = Math.max(0, Math.min(completion.selected - page + 1, completion.items.length - page));
  for (let i = first; i < first + page; i++) {
    const item = completion.items[i]!;
    const text = truncate(
      ` ${item.label ?? item.value}${item.detail ? theme.fg("muted", `  ${item.detail}`) : ""}`,
      width,
    );
    rows.push(i === completion.selected ? theme.bg("selectedBg", padTo(text, width)) : text);
  }
  return rows;
}
