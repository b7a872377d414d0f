/**
 * Turns the bytes a terminal sends into key presses: printable text, control keys, Esc and Alt
 * combinations, CSI/SS3 sequences (arrows, Home/End, Delete, PageUp/Down, F-keys, Shift+Tab), the CSI-u
 * and xterm modifyOtherKeys forms tmux forwards with extended keys, and bracketed paste (which may arrive
 * split over many chunks). Stateful only across chunks: an unfinished paste or escape sequence waits for
 * the rest.
 */
import type { TuiKey } from "pi-host";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** A key with no modifiers. */
function key(name: string, mods: Partial<Pick<TuiKey, "ctrl" | "alt" | "shift">> = {}, text?: string): TuiKey {
  const k: TuiKey = { name, ctrl: mods.ctrl ?? false, alt: mods.alt ?? false, shift: mods.shift ?? false };
  if (text !== undefined) k.text = text;
  return k;
}

/** xterm modifier parameter (1 + bits: shift 1, alt 2, ctrl 4) to flags. */
function modifiers(param: number | undefined): Pick<TuiKey, "ctrl" | "alt" | "shift"> {
  const bits = param === undefined || Number.isNaN(param) ? 0 : Math.max(0, param - 1);
  return { shift: (bits & 1) !== 0, alt: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

const CSI_LETTER: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  P: "f1",
  Q: "f2",
  R: "f3",
  S: "f4",
  Z: "tab",
};
const CSI_TILDE: Record<number, string> = {
  1: "home",
  2: "insert",
  3: "delete",
  4: "end",
  5: "pageUp",
  6: "pageDown",
  7: "home",
  8: "end",
  11: "f1",
  12: "f2",
  13: "f3",
  14: "f4",
  15: "f5",
  17: "f6",
  18: "f7",
  19: "f8",
  20: "f9",
  21: "f10",
  23: "f11",
  24: "f12",
};

/** A Unicode code point as the key name a CSI-u or modifyOtherKeys report means. */
function codePointKey(code: number, mods: Pick<TuiKey, "ctrl" | "alt" | "shift">): TuiKey {
  if (code === 13) return key("enter", mods);
  if (code === 9) return key("tab", mods);
  if (code === 27) return key("escape", mods);
  if (code === 127 || code === 8) return key("backspace", mods);
  if (code === 32) return mods.ctrl || mods.alt ? key("space", mods) : key("text", mods, " ");
  const char = String.fromCodePoint(code);
  if (!mods.ctrl && !mods.alt) return key("text", { shift: mods.shift }, char);
  return key(char.toLowerCase(), mods);
}

/** A lone control byte (0x00–0x1f, 0x7f) as a key. */
function controlKey(code: number, alt: boolean): TuiKey {
  if (code === 13) return key("enter", { alt });
  if (code === 10) return key("enter", { alt, shift: true }); // Ctrl+J / Shift+Enter in many terminals: a new line
  if (code === 9) return key("tab", { alt });
  if (code === 127 || code === 8) return key("backspace", { alt });
  if (code === 27) return key("escape", { alt });
  if (code === 0) return key("space", { ctrl: true, alt });
  if (code === 0x1f) return key("-", { ctrl: true, alt }); // Ctrl+- and Ctrl+/ (undo)
  if (code === 0x1c) return key("\\", { ctrl: true, alt });
  if (code === 0x1d) return key("]", { ctrl: true, alt });
  if (code === 0x1e) return key("^", { ctrl: true, alt });
  return key(String.fromCharCode(code + 96), { ctrl: true, alt });
}

/** Decodes a terminal's input stream into keys; feed it each chunk as it comes. */
export class KeyDecoder {
  private pending = "";
  private paste: string | undefined = undefined;

  /** The keys completed by this chunk, in order. */
  feed(chunk: string): TuiKey[] {
    const keys: TuiKey[] = [];
    let input = this.pending + chunk;
    this.pending = "";
    while (input.length > 0) {
      if (this.paste !== undefined) {
        const end = input.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(input, PASTE_END);
          this.paste += input.slice(0, input.length - keep);
          this.pending = input.slice(input.length - keep);
          return keys;
        }
        keys.push(key("paste", {}, (this.paste + input.slice(0, end)).replace(/\r\n?/g, "\n")));
        this.paste = undefined;
        input = input.slice(end + PASTE_END.length);
        continue;
      }
      if (input.startsWith(PASTE_START)) {
        this.paste = "";
        input = input.slice(PASTE_START.length);
        continue;
      }
      const consumed = this.one(input, keys);
      if (consumed === 0) {
        this.pending = input;
        return keys;
      }
      input = input.slice(consumed);
    }
    return keys;
  }

  /** Input held back waiting for the end of a sequence; a lone Esc is flushed by `flushPending`. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Ends a wait: an unfinished sequence held back is taken as typed (a lone Esc is Escape). */
  flushPending(): TuiKey[] {
    const held = this.pending;
    this.pending = "";
    if (held === "") return [];
    if (held === "\x1b") return [key("escape")];
    return [key("text", {}, held.replace(/\x1b/g, ""))].filter((k) => k.text !== "");
  }

  /** Decodes one key at the start of `input`; returns how many characters it used (0: need more). */
  private one(input: string, keys: TuiKey[]): number {
    const first = input.charCodeAt(0);
    if (first === 0x1b) return this.escape(input, keys);
    if (first < 0x20 || first === 0x7f) {
      keys.push(controlKey(first, false));
      return 1;
    }
    // A run of printable characters is one "text" key (fast typing, a paste without bracketed paste).
    let end = 1;
    while (end < input.length) {
      const c = input.charCodeAt(end);
      if (c < 0x20 || c === 0x7f || c === 0x1b) break;
      end++;
    }
    keys.push(key("text", {}, input.slice(0, end)));
    return end;
  }

  private escape(input: string, keys: TuiKey[]): number {
    if (input.length === 1) {
      // A lone Esc: the terminal sends Esc sequences in one write, so nothing more is coming.
      keys.push(key("escape"));
      return 1;
    }
    const second = input[1]!;
    if (second === "[") return this.csi(input, keys);
    if (second === "O") {
      if (input.length < 3) return 0;
      const name = CSI_LETTER[input[2]!];
      keys.push(name ? key(name) : key("text", {}, input.slice(2, 3)));
      return 3;
    }
    if (second === "\x1b") {
      keys.push(key("escape"));
      return 1;
    }
    const code = second.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) {
      keys.push(controlKey(code, true));
      return 2;
    }
    const char = String.fromCodePoint(input.codePointAt(1)!);
    keys.push(
      key(char.toLowerCase() === char ? char : char.toLowerCase(), { alt: true, shift: char.toLowerCase() !== char }),
    );
    return 1 + char.length;
  }

  private csi(input: string, keys: TuiKey[]): number {
    // CSI parameters are 0x30–0x3f, intermediates 0x20–0x2f, the final byte 0x40–0x7e.
    let end = 2;
    while (end < input.length) {
      const c = input.charCodeAt(end);
      if (c >= 0x40 && c <= 0x7e) break;
      if (c < 0x20 || c > 0x3f) {
        // Not a CSI sequence after all: Alt+[.
        keys.push(key("[", { alt: true }));
        return 2;
      }
      end++;
    }
    if (end >= input.length) {
      // A sequence this long without a final byte is no key: take the Esc alone and read on.
      if (input.length <= 32) return 0;
      keys.push(key("escape"));
      return 1;
    }
    const final = input[end]!;
    if (input[2] === "<" && (final === "M" || final === "m")) {
      const mouse = sgrMouse(input.slice(3, end), final === "M");
      if (mouse !== undefined) keys.push(mouse);
      return end + 1;
    }
    const params = input
      .slice(2, end)
      .split(";")
      .map((p) => Number.parseInt(p, 10));
    const length = end + 1;
    if (final === "u") {
      keys.push(codePointKey(params[0] ?? 0, modifiers(params[1])));
      return length;
    }
    if (final === "~") {
      if (params[0] === 27 && params.length >= 3) {
        keys.push(codePointKey(params[2]!, modifiers(params[1])));
        return length;
      }
      if (params[0] === 200) return length; // handled by feed; a stray start marker
      const name = CSI_TILDE[params[0] ?? 0];
      if (name) keys.push(key(name, modifiers(params[1])));
      return length;
    }
    const name = CSI_LETTER[final];
    if (name) {
      const mods = modifiers(params[1]);
      if (final === "Z") mods.shift = true;
      keys.push(key(name, mods));
    }
    // Anything else (focus reports, cursor position replies) is not a key.
    return length;
  }
}

/**
 * An SGR mouse report (`CSI < b ; x ; y M|m`) as a key named "mouse": bits 0–1 of `b` the button, 4 Shift,
 * 8 Alt, 16 Ctrl, 32 motion, 64 the wheel; `m` is a release.
 */
export function sgrMouse(params: string, pressed: boolean): TuiKey | undefined {
  const [b, x, y] = params.split(";").map((p) => Number.parseInt(p, 10));
  if (b === undefined || x === undefined || y === undefined || [b, x, y].some(Number.isNaN)) return undefined;
  const mods = { shift: (b & 4) !== 0, alt: (b & 8) !== 0, ctrl: (b & 16) !== 0 };
  const button = b & 3;
  const motion = (b & 32) !== 0;
  let action: NonNullable<TuiKey["mouse"]>["action"];
  if ((b & 64) !== 0) {
    if (button > 1) return undefined; // horizontal wheel
    action = button === 0 ? "wheelUp" : "wheelDown";
  } else if (!pressed) action = "release";
  else if (motion) action = button === 3 ? "move" : "drag";
  else action = "press";
  return { name: "mouse", ...mods, mouse: { action, button, row: y - 1, col: x - 1 } };
}

/** How many characters at the end of `text` could be the start of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}
