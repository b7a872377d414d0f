/**
 * `@earendil-works/pi-tui` for extensions: our own implementation of the part of pi 1.6.0's toolkit
 * extensions use to build what they show — key ids and matching (`Key`, `matchesKey`, `parseKey`),
 * terminal text measures (`visibleWidth`, `truncateToWidth`, `wrapTextWithAnsi`) and the basic
 * components (`Text`, `TruncatedText`, `Spacer`, `Container`, `Box`), whose `render(width)` returns
 * lines the host's TUI draws. The rest of pi's toolkit (its own terminal, editor, image protocols) is
 * pi's TUI itself; those exports throw "not supported yet" where used (modules.ts).
 */
import * as controls from "./pi-tui-controls.js";
import { Editor } from "./pi-tui-editor.js";

/** pi-tui's CURSOR_MARKER: a zero-width marker where a focused component wants the cursor. */
export const CURSOR_MARKER = "\x1b_pi:c\x07";

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b_[^\x07]*\x07/g;

/** The text without terminal escape sequences. */
export function stripTerminalSequences(text: string): string {
  return text.replace(ANSI, "");
}

/** Terminal cells of one code point: 0 for combining marks, 2 for wide East Asian and emoji, else 1. */
function cellWidth(cp: number): number {
  if (cp === 0 || (cp >= 0x300 && cp <= 0x36f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** Terminal cells `text` takes (escape sequences take none; tabs count 3, as pi-tui renders them). */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const ch of stripTerminalSequences(text)) width += ch === "\t" ? 3 : cellWidth(ch.codePointAt(0)!);
  return width;
}

/** Splits into escape sequences and characters, in order. */
function tokens(text: string): Array<{ ansi: boolean; text: string }> {
  const out: Array<{ ansi: boolean; text: string }> = [];
  let last = 0;
  for (const match of text.matchAll(ANSI)) {
    for (const ch of text.slice(last, match.index)) out.push({ ansi: false, text: ch });
    out.push({ ansi: true, text: match[0] });
    last = match.index! + match[0].length;
  }
  for (const ch of text.slice(last)) out.push({ ansi: false, text: ch });
  return out;
}

/** `text` cut to `maxWidth` cells with `ellipsis` when it is longer; `pad` fills it to the width. */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", pad = false): string {
  const width = visibleWidth(text);
  if (width <= maxWidth) return pad ? text + " ".repeat(Math.max(0, maxWidth - width)) : text;
  const room = Math.max(0, maxWidth - visibleWidth(ellipsis));
  let used = 0;
  let out = "";
  for (const token of tokens(text)) {
    if (token.ansi) {
      out += token.text;
      continue;
    }
    const w = visibleWidth(token.text);
    if (used + w > room) break;
    out += token.text;
    used += w;
  }
  const cut = `${out}\x1b[0m${ellipsis}`;
  return pad ? cut + " ".repeat(Math.max(0, maxWidth - used - visibleWidth(ellipsis))) : cut;
}

/** Word-wraps each line of `text` to `width` cells, keeping escape sequences; long words are split. */
export function wrapTextWithAnsi(text: string, width: number): string[] {
  const out: string[] = [];
  const limit = Math.max(1, width);
  for (const line of text.split("\n")) {
    let current = "";
    let currentWidth = 0;
    for (const word of line.split(/(?<= )/)) {
      const w = visibleWidth(word);
      // A word's trailing space may hang past the edge.
      if (currentWidth + visibleWidth(word.trimEnd()) <= limit) {
        current += word;
        currentWidth += w;
        continue;
      }
      if (current !== "") out.push(current.trimEnd());
      current = "";
      currentWidth = 0;
      for (const token of tokens(word)) {
        const tw = token.ansi ? 0 : visibleWidth(token.text);
        if (currentWidth + tw > limit) {
          out.push(current);
          current = "";
          currentWidth = 0;
        }
        current += token.text;
        currentWidth += tw;
      }
    }
    out.push(current.trimEnd());
  }
  return out;
}

const NAMED: Record<string, string> = {
  escape: "escape",
  esc: "esc",
  enter: "enter",
  return: "return",
  tab: "tab",
  space: "space",
  backspace: "backspace",
  delete: "delete",
  insert: "insert",
  clear: "clear",
  home: "home",
  end: "end",
  pageUp: "pageUp",
  pageDown: "pageDown",
  up: "up",
  down: "down",
  left: "left",
  right: "right",
  backtick: "`",
  hyphen: "-",
  equals: "=",
  leftbracket: "[",
  rightbracket: "]",
  backslash: "\\",
  semicolon: ";",
  quote: "'",
  comma: ",",
  period: ".",
  slash: "/",
  exclamation: "!",
  at: "@",
  hash: "#",
  dollar: "$",
  percent: "%",
  caret: "^",
  ampersand: "&",
  asterisk: "*",
  leftparen: "(",
  rightparen: ")",
  underscore: "_",
  plus: "+",
  pipe: "|",
  tilde: "~",
  leftbrace: "{",
  rightbrace: "}",
  colon: ":",
  lessthan: "<",
  greaterthan: ">",
  question: "?",
};

const MODIFIER_SETS: Record<string, string[]> = {
  ctrl: ["ctrl"],
  shift: ["shift"],
  alt: ["alt"],
  super: ["super"],
  ctrlShift: ["ctrl", "shift"],
  shiftCtrl: ["shift", "ctrl"],
  ctrlAlt: ["ctrl", "alt"],
  altCtrl: ["alt", "ctrl"],
  shiftAlt: ["shift", "alt"],
  altShift: ["alt", "shift"],
  ctrlSuper: ["ctrl", "super"],
  superCtrl: ["super", "ctrl"],
  shiftSuper: ["shift", "super"],
  superShift: ["super", "shift"],
  altSuper: ["alt", "super"],
  superAlt: ["super", "alt"],
  ctrlShiftAlt: ["ctrl", "shift", "alt"],
  ctrlShiftSuper: ["ctrl", "shift", "super"],
};

/** pi-tui's `Key`: key ids (`Key.enter`, `Key.ctrl("c")` → "ctrl+c"). */
export const Key: Record<string, unknown> = { ...NAMED };
for (let n = 1; n <= 12; n++) Key[`f${n}`] = `f${n}`;
for (const [name, mods] of Object.entries(MODIFIER_SETS)) Key[name] = (key: string) => `${mods.join("+")}+${key}`;

const SEQUENCES: Record<string, string> = {
  "\x1b": "escape",
  "\r": "enter",
  "\n": "enter",
  "\t": "tab",
  " ": "space",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x1b[A": "up",
  "\x1b[B": "down",
  "\x1b[C": "right",
  "\x1b[D": "left",
  "\x1bOA": "up",
  "\x1bOB": "down",
  "\x1bOC": "right",
  "\x1bOD": "left",
  "\x1b[H": "home",
  "\x1b[F": "end",
  "\x1b[1~": "home",
  "\x1b[4~": "end",
  "\x1b[2~": "insert",
  "\x1b[3~": "delete",
  "\x1b[5~": "pageUp",
  "\x1b[6~": "pageDown",
  "\x1b[Z": "shift+tab",
  "\x1bOP": "f1",
  "\x1bOQ": "f2",
  "\x1bOR": "f3",
  "\x1bOS": "f4",
};

const LETTER_KEYS: Record<string, string> = {
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
};
const TILDE_KEYS: Record<number, string> = {
  1: "home",
  2: "insert",
  3: "delete",
  4: "end",
  5: "pageUp",
  6: "pageDown",
  15: "f5",
  17: "f6",
  18: "f7",
  19: "f8",
  20: "f9",
  21: "f10",
  23: "f11",
  24: "f12",
};

/** The key id of one key press as the terminal sent it (legacy sequences and kitty `CSI u`), if known. */
export function parseKey(data: string): string | undefined {
  const known = SEQUENCES[data];
  if (known !== undefined) return known;
  const xterm = /^\x1b\[1;(\d+)([A-DHFPQRS])$/.exec(data) ?? /^\x1b\[(\d+)(?:;(\d+))?~$/.exec(data);
  if (xterm !== null) {
    const tilde = data.endsWith("~");
    const base = tilde ? TILDE_KEYS[Number(xterm[1])] : LETTER_KEYS[xterm[2]!];
    const mods = Number((tilde ? xterm[2] : xterm[1]) ?? 1) - 1;
    return base === undefined ? undefined : withMods(base, mods & 4 ? ["ctrl"] : [], mods & 2, mods & 1);
  }
  const kitty = /^\x1b\[(\d+)(?:;(\d+))?u$/.exec(data);
  if (kitty !== null) {
    const base = keyOfCode(Number(kitty[1]));
    const mods = Number(kitty[2] ?? 1) - 1;
    return base === undefined ? undefined : withMods(base, mods & 4 ? ["ctrl"] : [], mods & 2, mods & 1);
  }
  if (data.length === 1) {
    const code = data.charCodeAt(0);
    if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
    return data >= "A" && data <= "Z" ? `shift+${data.toLowerCase()}` : data;
  }
  if (data.length === 2 && data[0] === "\x1b") {
    const inner = parseKey(data[1]!);
    return inner === undefined ? undefined : `alt+${inner}`;
  }
  return undefined;
}

function keyOfCode(code: number): string | undefined {
  if (code === 13) return "enter";
  if (code === 27) return "escape";
  if (code === 9) return "tab";
  if (code === 127) return "backspace";
  if (code === 32) return "space";
  return code > 32 && code < 0x110000 ? String.fromCodePoint(code) : undefined;
}

function withMods(base: string, mods: string[], alt: number, shift: number): string {
  return [...mods, ...(alt ? ["alt"] : []), ...(shift ? ["shift"] : []), base].join("+");
}

/** Normalizes a key id: modifiers in one order, aliases (`esc`, `return`) to their key. */
function normalizeKeyId(id: string): string {
  const parts = id.toLowerCase().split("+");
  const key = parts.pop()!;
  const base = key === "esc" ? "escape" : key === "return" ? "enter" : key === "pageup" ? "pageup" : key;
  const order = ["ctrl", "shift", "alt", "super"];
  return [...order.filter((m) => parts.includes(m)), base].join("+");
}

/** Whether `data` (raw terminal input) is the key `keyId` ("ctrl+c", "shift+tab", Key.enter...). */
export function matchesKey(data: string, keyId: string): boolean {
  const parsed = parseKey(data);
  return parsed !== undefined && normalizeKeyId(parsed) === normalizeKeyId(keyId);
}

/** pi-tui's Component: lines for a width. */
export interface Component {
  render(width: number): readonly string[];
  handleInput?(data: string): void;
  invalidate?(): void;
}

/** Text wrapped to the width, with padding and an optional background function. */
export class Text implements Component {
  constructor(
    private text = "",
    private paddingX = 1,
    private paddingY = 1,
    private customBgFn?: (text: string) => string,
  ) {}
  setText(text: string): void {
    this.text = text;
  }
  setCustomBgFn(fn?: (text: string) => string): void {
    this.customBgFn = fn;
  }
  setPaddingX(paddingX: number): void {
    this.paddingX = paddingX;
  }
  invalidate(): void {}
  render(width: number): readonly string[] {
    if (this.text.trim() === "") return [];
    const inner = Math.max(1, width - this.paddingX * 2);
    const pad = " ".repeat(this.paddingX);
    const blank = " ".repeat(width);
    const body = wrapTextWithAnsi(this.text, inner).map((l) => truncateToWidth(pad + l + pad, width, "", true));
    const lines = [...Array(this.paddingY).fill(blank), ...body, ...Array(this.paddingY).fill(blank)];
    return this.customBgFn === undefined ? lines : lines.map(this.customBgFn);
  }
}

/** One line cut to the width. */
export class TruncatedText implements Component {
  constructor(
    private readonly text: string,
    private readonly paddingX = 0,
    private readonly paddingY = 0,
  ) {}
  invalidate(): void {}
  render(width: number): readonly string[] {
    const pad = " ".repeat(this.paddingX);
    const line = pad + truncateToWidth(this.text.split("\n")[0] ?? "", Math.max(0, width - this.paddingX * 2));
    return [...Array(this.paddingY).fill(""), line, ...Array(this.paddingY).fill("")];
  }
}

/** Empty lines. */
export class Spacer implements Component {
  constructor(private lines = 1) {}
  setLines(lines: number): void {
    this.lines = lines;
  }
  invalidate(): void {}
  render(): readonly string[] {
    return Array(this.lines).fill("");
  }
}

/** Children rendered one after another. */
export class Container implements Component {
  children: Component[] = [];
  addChild(child: Component): void {
    this.children.push(child);
  }
  removeChild(child: Component): void {
    this.children = this.children.filter((c) => c !== child);
  }
  clear(): void {
    this.children = [];
  }
  invalidate(): void {
    for (const child of this.children) child.invalidate?.();
  }
  render(width: number): readonly string[] {
    return this.children.flatMap((child) => [...child.render(width)]);
  }
}

/** A container with padding and an optional background function. */
export class Box extends Container {
  constructor(
    private paddingX = 1,
    private paddingY = 1,
    private bgFn?: (text: string) => string,
  ) {
    super();
  }
  setBgFn(fn?: (text: string) => string): void {
    this.bgFn = fn;
  }
  override render(width: number): readonly string[] {
    const inner = Math.max(1, width - this.paddingX * 2);
    const pad = " ".repeat(this.paddingX);
    const blank = " ".repeat(width);
    const body = super.render(inner).map((l) => truncateToWidth(pad + l, width, "", true));
    const lines = [...Array(this.paddingY).fill(blank), ...body, ...Array(this.paddingY).fill(blank)];
    return this.bgFn === undefined ? lines : lines.map(this.bgFn);
  }
}

/** pi-tui's renderFakeCursor: the cell drawn as the cursor (in reverse video). */
export function renderFakeCursor(text: string): string {
  return `\x1b_pi:fc\x07${text}\x1b_pi:/fc\x07`;
}

/** The module's working exports (the controls and `getKeybindings` are in pi-tui-controls.ts). */
export function piTuiExports(): Record<string, unknown> {
  return {
    SelectList: controls.SelectList,
    Input: controls.Input,
    getKeybindings: controls.getKeybindings,
    Editor,
    renderFakeCursor,
    CURSOR_MARKER,
    Key,
    matchesKey,
    parseKey,
    visibleWidth,
    truncateToWidth,
    wrapTextWithAnsi,
    stripTerminalSequences,
    Text,
    TruncatedText,
    Spacer,
    Container,
    Box,
  };
}
