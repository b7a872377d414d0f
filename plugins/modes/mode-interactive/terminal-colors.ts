/**
 * The terminal's colours, asked for at start-up as pi 1.6.0 asks: the default foreground (OSC 10) and
 * background (OSC 11), the 16 ANSI palette colours (OSC 4; kept only when all 16 answer), then a primary
 * device attributes request (DA1). Every terminal answers DA1 and
 * terminals answer in order, so the DA1 reply ends the wait even for one that ignores the colour
 * queries; a terminal that answers nothing ends it after a short bound. The replies arrive on stdin among
 * the keys, so they are taken out of the input before the key decoder sees it (late ones too).
 */
import type { TuiRgb, TuiTerminalColors } from "pi-host";

/** How many palette colours are asked for (the 16 ANSI colours). */
export const PALETTE_SIZE = 16;

/** OSC 10 and 11 queries, OSC 4 for palette colours 0-15, then DA1. */
export const TERMINAL_COLOR_QUERY = `\x1b]10;?\x07\x1b]11;?\x07${Array.from(
  { length: PALETTE_SIZE },
  (_, i) => `\x1b]4;${i};?\x07`,
).join("")}\x1b[c`;

/** pi's bound on the wait: its header waits for the DA1 reply or 100 ms. */
export const TERMINAL_COLOR_WAIT_MS = 100;

/**
 * An OSC 10/11 reply, or an OSC 4 one with its index (or without, as tmux 3.3 answers) (`rgb:RRRR/GGGG/BBBB`, 1-4 hex digits a channel),
 * ended by BEL or ST.
 */
const OSC_COLOR_REPLY =
  /\x1b\](1[01]|4(?:;\d{1,3})?);rgb:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})(?:\x07|\x1b\\)/gi;
/** A DA1 reply: `CSI ? 1 ; 2 c`. */
const DA1_REPLY = /\x1b\[\?[\d;]*c/g;
/** The start of a reply that may go on in the next chunk. */
const PARTIAL_REPLY = /\x1b(?:\](?:(?:1[01]?|4)(?:;[^\x07\x1b]*)?)?|\[(?:\?[\d;]*)?)?$/;

/** A channel of 1-4 hex digits scaled to 0-255 (X11's `rgb:` form). */
function channel(hex: string): number {
  const max = 16 ** hex.length - 1;
  return Math.round((Number.parseInt(hex, 16) / max) * 255);
}

/** Collects the replies to one query from the input, keeping everything else for the key decoder. */
export class TerminalColorReplies {
  readonly colors: TuiTerminalColors = {};
  /** The DA1 reply came: the terminal has said all it will. */
  done = false;
  private held = "";
  private readonly palette: Array<TuiRgb | undefined> = new Array(PALETTE_SIZE).fill(undefined);

  /** Takes the replies out of `chunk`; returns the rest (a reply split at the end is held for the next). */
  feed(chunk: string): string {
    let text = this.held + chunk;
    this.held = "";
    text = text.replace(OSC_COLOR_REPLY, (_m, which: string, r: string, g: string, b: string) => {
      const rgb: TuiRgb = { r: channel(r), g: channel(g), b: channel(b) };
      if (which === "10") this.colors.foreground = rgb;
      else if (which === "11") this.colors.background = rgb;
      else {
        // tmux 3.3 answers without the index: such a reply cannot be placed, and is only taken out of the keys.
        const index = which.length > 1 ? Number(which.slice(2)) : PALETTE_SIZE;
        if (index < PALETTE_SIZE) this.palette[index] = rgb;
        // The palette counts only whole: a terminal that answers some slots has a palette of its own we do not know.
        if (this.palette.every((c) => c !== undefined)) this.colors.palette = this.palette as TuiRgb[];
      }
      return "";
    });
    text = text.replace(DA1_REPLY, () => {
      this.done = true;
      return "";
    });
    if (!this.done) {
      const partial = PARTIAL_REPLY.exec(text);
      // A lone Escape is a key: only a longer reply prefix waits for more.
      if (partial !== null && partial[0].length > 1) {
        this.held = partial[0];
        text = text.slice(0, partial.index);
      }
    }
    return text;
  }

  /** What was held back when the wait ends (not a reply after all). */
  flush(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }
}

/** Removes whole colour and DA1 replies that come after the wait (a slow link), so they never become keys. */
export function stripLateReplies(chunk: string): string {
  if (!chunk.includes("\x1b")) return chunk;
  return chunk.replace(OSC_COLOR_REPLY, "").replace(DA1_REPLY, "");
}

/** Asks the terminal to report light/dark switches (mode 2031), as pi does while it runs. */
export const SCHEME_REPORTS_ON = "\x1b[?2031h";
/** Stops the reports (the terminal is handed back). */
export const SCHEME_REPORTS_OFF = "\x1b[?2031l";
/** A light/dark report: `CSI ? 997 ; 1 n` (dark) or `CSI ? 997 ; 2 n` (light). */
const SCHEME_REPORT = /\x1b\[\?997;([12])n/g;

/** Takes light/dark reports out of `chunk`: the rest for the keys, and the last scheme reported, if any. */
export function takeSchemeReports(chunk: string): { rest: string; scheme?: "dark" | "light" } {
  if (!chunk.includes("\x1b[?997;")) return { rest: chunk };
  let scheme: "dark" | "light" | undefined;
  const rest = chunk.replace(SCHEME_REPORT, (_m, code: string) => {
    scheme = code === "2" ? "light" : "dark";
    return "";
  });
  return scheme === undefined ? { rest } : { rest, scheme };
}
