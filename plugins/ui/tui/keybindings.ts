/**
 * `<agent>/keybindings.json` as pi 1.6.0 reads it: action id → one key or a list of keys ("ctrl+shift+x"),
 * a configured value replacing the action's defaults and `[]` disabling it. Keys are compared in one
 * canonical form ("ctrl+alt+shift+super+name", lower case), so a decoded key press and a configured key
 * meet there. The file is re-read when it changes, so an edit applies at the next key press.
 */
import { readFileSync, statSync } from "node:fs";
import type { TuiKey } from "pi-host";
import { DEFAULT_KEYBINDINGS } from "./keybinding-actions.js";

const MODIFIERS = ["ctrl", "alt", "shift", "super"] as const;
const NAMED_KEYS = new Set([
  "escape",
  "enter",
  "tab",
  "space",
  "backspace",
  "delete",
  "insert",
  "clear",
  "home",
  "end",
  "pageup",
  "pagedown",
  "up",
  "down",
  "left",
  "right",
  ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
]);
const ALIASES: Record<string, string> = { esc: "escape", return: "enter" };
const SYMBOLS = new Set("`-=[]\\;',./!@#$%^&*()_+|~{}:<>?".split(""));

/** A key in keybindings.json syntax to its canonical form, or undefined when it is not a key. */
export function parseKeySpec(spec: string): string | undefined {
  const text = spec.trim();
  if (text === "") return undefined;
  // "ctrl++" binds the plus key itself.
  const plusKey = text === "+" || text.endsWith("++");
  const parts = plusKey
    ? [
        ...text
          .slice(0, -2)
          .split("+")
          .filter((p) => p !== ""),
        "+",
      ]
    : text.split("+");
  const name = parts.pop()!.toLowerCase();
  const mods = new Set<string>();
  for (const part of parts) {
    const mod = part.toLowerCase();
    if (!(MODIFIERS as readonly string[]).includes(mod) || mods.has(mod)) return undefined;
    mods.add(mod);
  }
  const key = ALIASES[name] ?? name;
  const valid = /^[a-z0-9]$/.test(key) || SYMBOLS.has(key) || NAMED_KEYS.has(key);
  if (!valid) return undefined;
  return canonical(mods, key);
}

function canonical(mods: Set<string>, key: string): string {
  return [...MODIFIERS.filter((m) => mods.has(m)), key].join("+");
}

/** The canonical forms a decoded key press answers to (none for a paste or several typed characters). */
export function keyIds(key: TuiKey): string[] {
  const mods = new Set<string>();
  if (key.ctrl) mods.add("ctrl");
  if (key.alt) mods.add("alt");
  let name = key.name.toLowerCase();
  if (key.name === "paste") return [];
  if (key.name === "text") {
    const chars = [...(key.text ?? "")];
    if (chars.length !== 1) return [];
    const char = chars[0]!;
    if (char === " ") name = "space";
    else if (/^[A-Z]$/.test(char)) {
      mods.add("shift");
      name = char.toLowerCase();
    } else name = char;
    return [canonical(mods, name)];
  }
  if (key.shift) mods.add("shift");
  const ids = [canonical(mods, name)];
  // A terminal sends Ctrl+J as a line feed, which the decoder reports as Shift+Enter.
  if (name === "enter" && key.shift && !key.ctrl)
    ids.push(canonical(new Set(key.alt ? ["ctrl", "alt"] : ["ctrl"]), "j"));
  return ids;
}

/** Action id → the canonical keys that trigger it. */
export type Bindings = ReadonlyMap<string, ReadonlySet<string>>;

/** Builds the bindings from the defaults and a parsed keybindings.json; every problem is one warning line. */
export function buildBindings(user: unknown): { bindings: Bindings; warnings: string[] } {
  const warnings: string[] = [];
  const table = new Map<string, Set<string>>();
  for (const [action, keys] of Object.entries(DEFAULT_KEYBINDINGS))
    table.set(action, new Set(keys.map((k) => parseKeySpec(k)!).filter((k) => k !== undefined)));
  if (user === undefined) return { bindings: table, warnings };
  if (typeof user !== "object" || user === null || Array.isArray(user)) {
    warnings.push("keybindings.json: expected an object of action ids to keys; using the default keys");
    return { bindings: table, warnings };
  }
  for (const [action, value] of Object.entries(user as Record<string, unknown>)) {
    if (action === "$schema") continue;
    if (!table.has(action)) {
      warnings.push(`keybindings.json: unknown action "${action}" (see docs/keybindings.md for the action ids)`);
      continue;
    }
    const specs = typeof value === "string" ? [value] : value;
    if (!Array.isArray(specs) || specs.some((s) => typeof s !== "string")) {
      warnings.push(`keybindings.json: "${action}" must be a key or a list of keys; it keeps its default`);
      continue;
    }
    const keys = new Set<string>();
    for (const spec of specs as string[]) {
      const id = parseKeySpec(spec);
      if (id === undefined) warnings.push(`keybindings.json: "${spec}" for "${action}" is not a key; it is ignored`);
      else keys.add(id);
    }
    table.set(action, keys);
  }
  return { bindings: table, warnings };
}

/** Whether `key` triggers `action`. */
export function isAction(bindings: Bindings, action: string, key: TuiKey): boolean {
  const keys = bindings.get(action);
  if (keys === undefined || keys.size === 0) return false;
  return keyIds(key).some((id) => keys.has(id));
}

/** keybindings.json on disk, re-read when its size or time changes. */
export class KeybindingsFile {
  private stamp = "";
  private bindings: Bindings = buildBindings(undefined).bindings;

  constructor(readonly path: string) {}

  /** The current bindings, and the warnings of a load that happened just now (else none). */
  current(): { bindings: Bindings; warnings: string[] } {
    let stamp = "absent";
    try {
      const stat = statSync(this.path);
      stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      // no file: the defaults
    }
    if (stamp === this.stamp) return { bindings: this.bindings, warnings: [] };
    this.stamp = stamp;
    let user: unknown;
    if (stamp !== "absent") {
      try {
        user = JSON.parse(readFileSync(this.path, "utf8"));
      } catch (error) {
        this.bindings = buildBindings(undefined).bindings;
        return {
          bindings: this.bindings,
          warnings: [`keybindings.json: ${(error as Error).message}; using the default keys`],
        };
      }
    }
    const built = buildBindings(user);
    this.bindings = built.bindings;
    return built;
  }
}
