/**
 * Following the terminal's light/dark switch while pi runs, as pi 1.6.0 does: with mode 2031 on, the
 * terminal reports each switch (`CSI ? 997 ; 1|2 n`); its colours changed with it, so they are asked again
 * (OSC 10, 11, 4 and DA1, as at start) and handed to the view, whose `system` theme and light/dark theme
 * pairs follow. Keys keep flowing meanwhile: the replies are taken out of the input as they arrive.
 */
import type { TuiTerminalColors } from "pi-host";
import { TERMINAL_COLOR_QUERY, TerminalColorReplies, takeSchemeReports } from "./terminal-colors.js";

/** How long a re-query waits for the DA1 reply before taking what came. */
const REQUERY_WAIT_MS = 1_000;

/** Watches the input for light/dark reports and runs one colour query per switch. */
export class ColorSchemeWatch {
  private asking: { replies: TerminalColorReplies; scheme: "dark" | "light"; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly write: (sequence: string) => void,
    private readonly changed: (colors: TuiTerminalColors) => void,
    private readonly waitMs = REQUERY_WAIT_MS,
  ) {}

  /** Takes reports, and the replies of a query under way, out of `raw`; returns the rest for the keys. */
  feed(raw: string): string {
    let text = raw;
    const asking = this.asking;
    if (asking !== undefined) {
      text = asking.replies.feed(text);
      if (asking.replies.done) this.finish();
    }
    const { rest, scheme } = takeSchemeReports(text);
    if (scheme !== undefined) this.requery(scheme);
    return rest;
  }

  /** Forgets a query under way (the run ends or hands the terminal over). */
  stop(): void {
    if (this.asking !== undefined) clearTimeout(this.asking.timer);
    this.asking = undefined;
  }

  private requery(scheme: "dark" | "light"): void {
    // Several reports in a row (a terminal that toggles twice): one query, the last scheme.
    if (this.asking !== undefined) {
      this.asking.scheme = scheme;
      return;
    }
    const timer = setTimeout(() => this.finish(), this.waitMs);
    this.asking = { replies: new TerminalColorReplies(), scheme, timer };
    this.write(TERMINAL_COLOR_QUERY);
  }

  private finish(): void {
    const asking = this.asking;
    if (asking === undefined) return;
    clearTimeout(asking.timer);
    this.asking = undefined;
    asking.replies.flush();
    this.changed({ ...asking.replies.colors, scheme: asking.scheme });
  }
}
