/**
 * Autocomplete under the editor: `/` at the start of the prompt lists the commands (and the session's
 * prompt templates and skills, when the resources plugin offers them), `@` in a word lists files and
 * folders under the working folder. The list is recomputed after every edit; Tab or Enter takes the
 * selected item.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "./commands.js";
import type { Completion, EditorState } from "./state.js";

const MAX_ITEMS = 30;

/** Extra `/` names besides the built-in commands (prompt templates, `skill:` names). */
export interface ExtraCommand {
  value: string;
  detail?: string;
}

/** The completion list for the editor's text and cursor, or null when nothing applies. */
export function computeCompletion(editor: EditorState, cwd: string, extra: ExtraCommand[] = []): Completion | null {
  const before = editor.text.slice(0, editor.cursor);
  const command = /^\/([\w:.-]*)$/.exec(before);
  if (command !== null) {
    const prefix = command[1]!.toLowerCase();
    const items = [...COMMANDS.map((c) => ({ value: c.name, detail: c.description })), ...extra]
      .filter((c) => c.value.toLowerCase().startsWith(prefix))
      .slice(0, MAX_ITEMS)
      .map((c) => ({ value: `/${c.value}`, detail: c.detail }));
    if (items.length === 0 || (items.length === 1 && items[0]!.value === before)) return null;
    return { items, selected: 0, start: 0, kind: "command" };
  }
  const word = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (word !== null) {
    const partial = word[1]!;
    const slash = partial.lastIndexOf("/");
    const dir = slash < 0 ? "" : partial.slice(0, slash + 1);
    const namePrefix = partial.slice(slash + 1);
    let names: Array<{ name: string; folder: boolean }>;
    try {
      names = readdirSync(join(cwd, dir), { withFileTypes: true }).map((d) => ({
        name: d.name,
        folder: d.isDirectory(),
      }));
    } catch {
      return null;
    }
    const items = names
      .filter(
        (n) =>
          n.name.startsWith(namePrefix) &&
          (namePrefix.startsWith(".") || !n.name.startsWith(".")) &&
          n.name !== "node_modules",
      )
      .sort((a, b) => Number(b.folder) - Number(a.folder) || a.name.localeCompare(b.name))
      .slice(0, MAX_ITEMS)
      .map((n) => ({ value: `@${dir}${n.name}${n.folder ? "/" : ""}` }));
    if (items.length === 0) return null;
    return { items, selected: 0, start: before.length - partial.length - 1, kind: "file" };
  }
  return null;
}

/** The editor after taking `completion`'s selected item. */
export function applyCompletion(editor: EditorState, completion: Completion): EditorState {
  const item = completion.items[completion.selected];
  if (item === undefined) return editor;
  const after = editor.text.slice(editor.cursor);
  const spacer = completion.kind === "file" && item.value.endsWith("/") ? "" : " ";
  const head = editor.text.slice(0, completion.start) + item.value + (after.startsWith(" ") ? "" : spacer);
  return { text: head + after, cursor: head.length };
}
