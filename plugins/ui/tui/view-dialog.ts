/**
 * A `ui` dialog (select, confirm, input, editor) as the terminal view shows it in place of the editor:
 * the keys it takes and the rows it draws.
 */
import type { TuiKey } from "pi-host";
import * as editor from "./editor.js";
import type { Dialog } from "./state.js";
import { padTo, truncate, wrapText } from "./text.js";
import type { Theme } from "./theme.js";

/** Keys while a `ui` dialog is shown: choose among options, or type an answer; Esc dismisses. */
export function dialogKey(
  dialog: Dialog,
  key: TuiKey,
  settle: (id: string, value: unknown) => void,
  is: (action: string) => boolean = (action) => DEFAULT_DIALOG_KEYS[action]?.(key) === true,
): void {
  if (is("tui.select.cancel")) return settle(dialog.id, undefined);
  if (dialog.kind === "select" || dialog.kind === "confirm") {
    const count = dialog.options?.length ?? 0;
    if (is("tui.select.up")) dialog.selected = Math.max(0, dialog.selected - 1);
    else if (is("tui.select.down")) dialog.selected = Math.min(count - 1, dialog.selected + 1);
    else if (is("tui.select.confirm")) {
      const choice = dialog.options?.[dialog.selected];
      settle(dialog.id, dialog.kind === "confirm" ? choice === "Yes" : choice);
    } else if (dialog.kind === "confirm" && key.name === "text" && /^[yn]$/i.test(key.text ?? "")) {
      settle(dialog.id, key.text!.toLowerCase() === "y");
    }
    return;
  }
  if (key.name === "enter" && !(dialog.kind === "editor" && (key.shift || key.alt)))
    return settle(dialog.id, dialog.text);
  if (key.name === "enter") dialog.text += "\n";
  else if (key.name === "text" || key.name === "paste") dialog.text += (key.text ?? "").replace(/\r\n?/g, "\n");
  else if (key.name === "space") dialog.text += " ";
  else if (key.name === "backspace")
    dialog.text = dialog.text.slice(0, editor.previousBoundary(dialog.text, dialog.text.length));
}

/** pi's default list keys, for a caller without the user's keybindings.json. */
const DEFAULT_DIALOG_KEYS: Record<string, (key: TuiKey) => boolean> = {
  "tui.select.cancel": (k) => k.name === "escape" || (k.ctrl && k.name === "c"),
  "tui.select.up": (k) => k.name === "up",
  "tui.select.down": (k) => k.name === "down",
  "tui.select.confirm": (k) => k.name === "enter",
};

/** A `ui` dialog's rows in place of the editor, and where the cursor goes when it takes text. */
export function renderDialog(
  dialog: Dialog,
  width: number,
  theme: Theme,
): { lines: string[]; cursor?: { row: number; col: number } } {
  const rows: string[] = [
    theme.fg("border", "─".repeat(width)),
    ` ${theme.bold(theme.fg("accent", truncate(dialog.title, width - 2)))}`,
  ];
  if (dialog.kind === "confirm" && dialog.message)
    rows.push(...wrapText(dialog.message, width - 2).map((r) => ` ${r}`));
  if (dialog.kind === "select" || dialog.kind === "confirm") {
    (dialog.options ?? []).forEach((option, i) => {
      const text = truncate(` ${i === dialog.selected ? "› " : "  "}${option}`, width);
      rows.push(i === dialog.selected ? theme.bg("selectedBg", padTo(text, width)) : text);
    });
    rows.push(
      theme.fg(
        "dim",
        truncate(dialog.kind === "confirm" ? " enter choose · y/n · esc cancel" : " enter choose · esc cancel", width),
      ),
    );
    return { lines: rows };
  }
  const layout = editor.layoutEditor({ text: dialog.text, cursor: dialog.text.length }, width);
  const start = rows.length;
  if (dialog.text === "" && dialog.message) rows.push(theme.fg("dim", truncate(dialog.message, width)));
  else for (const row of layout.rows) rows.push(row);
  rows.push(
    theme.fg(
      "dim",
      truncate(
        dialog.kind === "editor" ? " enter submit · shift+enter new line · esc cancel" : " enter submit · esc cancel",
        width,
      ),
    ),
  );
  return {
    lines: rows,
    cursor: {
      row: start + (dialog.text === "" ? 0 : layout.cursorRow),
      col: dialog.text === "" ? 0 : layout.cursorCol,
    },
  };
}
