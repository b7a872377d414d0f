/**
 * `pi.registerShortcut` for the terminal view (`tui/shortcuts`): key ids in the view's spelling
 * (modifiers ctrl, shift, alt in that order; pi's `esc`/`return` aliases as `escape`/`enter`), and the
 * handler run with pi's `ctx`. The first extension (in load order) that registered a key has it.
 */
import type { TuiShortcuts } from "pi-host";
import type { ExtensionRuntime } from "./runtime.js";

/** A key id as the view spells it. */
export function normalizeKeyId(id: string): string {
  const parts = id.toLowerCase().split("+");
  const key = parts.pop() ?? "";
  const base = key === "esc" ? "escape" : key === "return" ? "enter" : key;
  return [...["ctrl", "shift", "alt", "super"].filter((m) => parts.includes(m)), base].join("+");
}

/** The shortcuts provider of one plugin generation. */
export function createShortcuts(runtime: ExtensionRuntime): TuiShortcuts {
  const find = (keyId: string) => {
    for (const extension of runtime.extensions)
      for (const [id, shortcut] of extension.shortcuts)
        if (normalizeKeyId(id) === keyId) return { extension, shortcut };
    return undefined;
  };
  return {
    keys: () => runtime.extensions.flatMap((e) => [...e.shortcuts.keys()].map(normalizeKeyId)),
    async run(keyId) {
      const found = find(keyId);
      if (found === undefined) return;
      try {
        await found.shortcut.handler(runtime.context());
      } catch (error) {
        runtime.report(found.extension, `shortcut ${keyId}`, error);
      }
    },
  };
}
