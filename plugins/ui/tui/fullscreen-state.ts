/**
 * What fullscreen mode remembers in the view's kernel state — the mode and its options (set when a run
 * starts), where the transcript viewport is scrolled, the transcript search and the mouse selection — so
 * a `--watch` swap of this plugin keeps the scroll position, the search and the selection.
 */
import type { TuiFullscreenOptions } from "pi-host";

/** A cell of the rendered transcript: its row (0 is the transcript's first row) and column. */
export interface TranscriptPoint {
  row: number;
  col: number;
}

/** The fullscreen part of the view state. */
export interface FullscreenState extends TuiFullscreenOptions {
  /** This run draws on the alternate screen. */
  enabled: boolean;
  /** The first transcript row in the viewport; null follows the transcript's end (new output shows). */
  scrollTop: number | null;
  /** The transcript search while it is open: the query and the selected match (-1: none). */
  search: { query: string; current: number } | null;
  /** A mouse selection of transcript text; `dragging` until the button is released. */
  selection: { anchor: TranscriptPoint; head: TranscriptPoint; dragging: boolean } | null;
}

/** Fullscreen off (a regular run), pi's default options. */
export function initialFullscreenState(): FullscreenState {
  return {
    enabled: false,
    scrollbar: "auto",
    copyOnSelect: true,
    wheelScrollLines: "auto",
    scrollTop: null,
    search: null,
    selection: null,
  };
}
