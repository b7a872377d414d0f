/**
 * The key id another plugin's shortcut is registered under, for a key press the view's own bindings do
 * not take: pi's spelling, modifiers in the order ctrl, shift, alt.
 */
import type { TuiKey } from "pi-host";

/** The key id of a key press with a modifier, or of a function key ("ctrl+shift+p", "f5"); else undefined. */
export function shortcutId(key: TuiKey): string | undefined {
  const name = key.name === "text" ? key.text : key.name;
  if (name === undefined || name === "paste" || name.length === 0) return undefined;
  if (!key.ctrl && !key.alt && !/^f\d+$/.test(name)) return undefined;
  return [
    ...(key.ctrl ? ["ctrl"] : []),
    ...(key.shift ? ["shift"] : []),
    ...(key.alt ? ["alt"] : []),
    name.toLowerCase(),
  ].join("+");
}
