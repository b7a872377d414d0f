/**
 * A key the view decoded, as the terminal bytes pi-tui components read in `handleInput(data)`: pi hands
 * components raw input and they test it with `matchesKey(data, "ctrl+c")`. Keys without modifiers are
 * the legacy sequences every terminal sends; modified keys are the xterm (`CSI 1;m A`) and kitty
 * (`CSI code;m u`) forms, which `parseKey` in pi-tui.ts reads back.
 */
import type { TuiKey } from "pi-host";

const PLAIN: Record<string, string> = {
  enter: "\r",
  escape: "\x1b",
  tab: "\t",
  backspace: "\x7f",
  space: " ",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  insert: "\x1b[2~",
  delete: "\x1b[3~",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  f1: "\x1bOP",
  f2: "\x1bOQ",
  f3: "\x1bOR",
  f4: "\x1bOS",
};

const LETTER: Record<string, string> = { up: "A", down: "B", right: "C", left: "D", home: "H", end: "F" };
const TILDE: Record<string, number> = {
  insert: 2,
  delete: 3,
  pageUp: 5,
  pageDown: 6,
  f5: 15,
  f6: 17,
  f7: 18,
  f8: 19,
  f9: 20,
  f10: 21,
  f11: 23,
  f12: 24,
};
const CODES: Record<string, number> = { enter: 13, escape: 27, tab: 9, backspace: 127, space: 32 };

/** The xterm modifier parameter: 1 + shift 1, alt 2, ctrl 4. */
function modifier(key: TuiKey): number {
  return 1 + (key.shift ? 1 : 0) + (key.alt ? 2 : 0) + (key.ctrl ? 4 : 0);
}

/** The bytes a terminal sends for `key` (a paste in bracketed-paste markers). */
export function keyData(key: TuiKey): string {
  if (key.name === "paste") return `\x1b[200~${key.text ?? ""}\x1b[201~`;
  if (key.name === "text") {
    const text = key.text ?? "";
    if (!key.ctrl && !key.alt) return text;
    return [...text].map((ch) => keyData({ ...key, name: ch.toLowerCase(), text: undefined })).join("");
  }
  const mods = modifier(key);
  if (key.name === "tab" && key.shift && !key.ctrl && !key.alt) return "\x1b[Z";
  if (mods === 1) {
    const plain = PLAIN[key.name] ?? (TILDE[key.name] !== undefined ? `\x1b[${TILDE[key.name]}~` : undefined);
    return plain ?? key.name;
  }
  const letter = LETTER[key.name] ?? (/^f[1-4]$/.test(key.name) ? "PQRS"[Number(key.name.slice(1)) - 1] : undefined);
  if (letter !== undefined) return `\x1b[1;${mods}${letter}`;
  const tilde = TILDE[key.name];
  if (tilde !== undefined) return `\x1b[${tilde};${mods}~`;
  const code = CODES[key.name] ?? ([...key.name].length === 1 ? key.name.codePointAt(0)! : undefined);
  if (code === undefined) return "";
  // The legacy forms of Ctrl+letter and Alt+key, which every terminal sends.
  if (key.ctrl && !key.alt && !key.shift && /^[a-z]$/.test(key.name)) return String.fromCharCode(code - 96);
  if (key.alt && !key.ctrl && !key.shift && code !== 27 && code !== 13) {
    const base = PLAIN[key.name] ?? key.name;
    return `\x1b${base}`;
  }
  return `\x1b[${code};${mods}u`;
}

/** A key id ("ctrl+shift+p", "pageUp", "a") as the view's key. */
function keyOfId(id: string): TuiKey {
  const parts = id.split("+");
  const name = parts.pop() ?? id;
  const mods = { ctrl: parts.includes("ctrl"), alt: parts.includes("alt"), shift: parts.includes("shift") };
  const char = name === "space" ? " " : [...name].length === 1 ? name : undefined;
  if (char !== undefined && !mods.ctrl && !mods.alt) {
    const text = mods.shift ? char.toUpperCase() : char;
    return { name: "text", text, ctrl: false, alt: false, shift: mods.shift && text !== char };
  }
  return { name, ...mods };
}

/**
 * Terminal input as the view's keys: what a component passes on (pi's `CustomEditor` calling
 * `super.handleInput(data)`, perhaps with other bytes than it got). One key sequence, a paste, or typed text.
 */
export function dataToKeys(data: string, parse: (data: string) => string | undefined): TuiKey[] {
  const paste = /^\x1b\[200~([\s\S]*)\x1b\[201~$/.exec(data);
  if (paste !== null) return [{ name: "paste", text: paste[1]!, ctrl: false, alt: false, shift: false }];
  const id = parse(data);
  if (id !== undefined) return [keyOfId(id)];
  if (data !== "" && !/[\x00-\x1f\x7f]/.test(data))
    return [{ name: "text", text: data, ctrl: false, alt: false, shift: false }];
  return [];
}
