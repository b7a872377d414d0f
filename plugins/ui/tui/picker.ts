/**
 * A list picker (models, the session tree, sessions to resume, fork points): type to filter, Up/Down and
 * PageUp/PageDown to move, Enter to choose, Esc to close. Its selection and scroll offset are view state,
 * so a reload of the view keeps the list where the user left it.
 */
import type { TuiKey } from "pi-host";
import { resumeRows } from "./resume-order.js";
import type { Picker, PickerItem } from "./state.js";
import { cellWidth, padTo, truncate } from "./text.js";
import type { Theme } from "./theme.js";
import { treeFilterLabel, treeFilterModeOf } from "./tree-items.js";

/** Rows of the list shown at once (fewer on a small terminal). */
export function visibleRows(height: number): number {
  return Math.max(3, Math.min(12, height - 8));
}

/** Whether a row's label and detail hold every word of the query (case-insensitive). */
export function matchesQuery(query: string, label: string, detail: string | undefined): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${label} ${detail ?? ""}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

/** The items matching the query, with their index in `items`. */
export function filtered(picker: Picker): Array<{ item: PickerItem; index: number }> {
  if (picker.kind === "resume") return resumeRows(picker);
  return picker.items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => matchesQuery(picker.query, item.label, item.detail));
}

/** What a key did to the picker. */
export type PickerAction =
  | { type: "choose"; item: PickerItem }
  | { type: "close" }
  | { type: "label"; item: PickerItem }
  | { type: "none" };

/** Whether a key triggers a keybindings.json action. */
export type PickerIs = (action: string) => boolean;

/** The default list keys, for a caller without the user's bindings. */
const DEFAULT_LIST_KEYS: Record<string, (key: TuiKey) => boolean> = {
  "tui.select.cancel": (k) => k.name === "escape" || (k.ctrl && k.name === "c"),
  "tui.select.confirm": (k) => k.name === "enter" && !k.shift && !k.ctrl && !k.alt,
  "tui.select.up": (k) => k.name === "up" && !k.ctrl && !k.alt,
  "tui.select.down": (k) => k.name === "down" && !k.ctrl && !k.alt,
  "tui.select.pageUp": (k) => k.name === "pageUp",
  "tui.select.pageDown": (k) => k.name === "pageDown",
  "app.tree.editLabel": (k) => (k.name === "l" && k.shift && !k.ctrl) || (k.name === "text" && k.text === "L"),
};

/**
 * Moves, filters, chooses or closes, through pi's list actions (`tui.select.up/down/pageUp/pageDown/
 * confirm/cancel`, and `app.tree.editLabel` in the tree) as keybindings.json binds them.
 */
export function pickerKey(picker: Picker, key: TuiKey, height: number, is?: PickerIs): PickerAction {
  const act = is ?? ((action: string) => DEFAULT_LIST_KEYS[action]?.(key) === true);
  const shown = filtered(picker);
  const page = visibleRows(height);
  const move = (delta: number): void => {
    if (shown.length === 0) return;
    picker.selected = Math.max(0, Math.min(shown.length - 1, picker.selected + delta));
  };
  if (act("tui.select.cancel")) return { type: "close" };
  if (act("tui.select.confirm")) {
    const choice = shown[picker.selected];
    return choice === undefined ? { type: "none" } : { type: "choose", item: choice.item };
  }
  if (picker.kind === "tree" && act("app.tree.editLabel")) {
    const choice = shown[picker.selected];
    if (choice !== undefined) return { type: "label", item: choice.item };
    return { type: "none" };
  }
  if (act("tui.select.up")) move(-1);
  else if (act("tui.select.down")) move(1);
  else if (act("tui.select.pageUp")) move(-page);
  else if (act("tui.select.pageDown")) move(page);
  else if (key.name === "home") picker.selected = 0;
  else if (key.name === "end") picker.selected = Math.max(0, shown.length - 1);
  else if (key.name === "backspace") {
    picker.query = picker.query.slice(0, -1);
    picker.selected = 0;
  } else if (key.name === "text" || key.name === "paste") {
    picker.query += (key.text ?? "").replace(/\n/g, " ");
    picker.selected = 0;
  }
  keepInView(picker, page);
  return { type: "none" };
}

/** Scrolls so the selection is visible. */
export function keepInView(picker: Picker, page: number): void {
  if (picker.selected < picker.scroll) picker.scroll = picker.selected;
  if (picker.selected >= picker.scroll + page) picker.scroll = picker.selected - page + 1;
  picker.scroll = Math.max(0, picker.scroll);
}

/** A path with the home folder as `~`. */
function homeShort(path: string): string {
  const home = process.env.HOME || process.env.USERPROFILE || "";
  return home !== "" && path.startsWith(home) ? `~${path.slice(home.length)}` : path;
}

/** The picker's rows: title, query, the visible slice of the list, and a key hint. */
export function renderPicker(picker: Picker, width: number, height: number, theme: Theme): string[] {
  const page = visibleRows(height);
  const shown = filtered(picker);
  keepInView(picker, page);
  const rows: string[] = [theme.fg("border", "─".repeat(width))];
  rows.push(
    ` ${theme.bold(theme.fg("accent", truncate(picker.title, width - 2)))}${picker.query ? theme.fg("muted", `  filter: ${truncate(picker.query, Math.max(1, width - cellWidth(picker.title) - 12))}`) : ""}`,
  );
  for (const line of picker.header ?? []) rows.push(theme.fg("muted", ` ${truncate(line, width - 2)}`));
  if (picker.loading) rows.push(theme.fg("muted", " Loading…"));
  else if (shown.length === 0)
    rows.push(
      theme.fg(
        "muted",
        picker.namedOnly === true && picker.items.length === 0
          ? " No named sessions"
          : picker.items.length === 0
            ? " Nothing to show"
            : " No match",
      ),
    );
  for (let i = picker.scroll; i < Math.min(shown.length, picker.scroll + page); i++) {
    const { item } = shown[i]!;
    const selected = i === picker.selected;
    const shownDetail = picker.showPath === true ? `${item.detail ?? ""} · ${homeShort(item.value)}` : item.detail;
    const detail = shownDetail ? `  ${shownDetail}` : "";
    // The tree, as pi draws it: cursor, connectors, fold mark, a bullet on the current path, the text.
    const marker =
      item.prefix !== undefined
        ? `${selected ? "› " : "  "}${item.prefix}${item.rootMark ?? ""}${item.current ? "• " : ""}`
        : selected
          ? "› "
          : item.current
            ? "• "
            : "  ";
    const label = truncate(`${marker}${item.label}`, width - 1);
    const room = width - 1 - cellWidth(label);
    const text = ` ${label}${room > 2 && detail ? theme.fg("muted", truncate(detail, room)) : ""}`;
    rows.push(selected ? theme.bg("selectedBg", padTo(text, width)) : item.current ? theme.fg("accent", text) : text);
  }
  if (picker.labelEdit !== undefined) {
    const prompt =
      picker.editPrompt ??
      (picker.kind === "settings" ? "value:" : picker.kind === "bug" ? "What went wrong? (optional)" : "label:");
    rows.push(
      ` ${theme.fg("warning", prompt)} ${truncate(picker.labelEdit, Math.max(1, width - cellWidth(prompt) - 3))}`,
    );
  }
  // The tree always shows its position and filter, as pi's does: "(3/12) [no-tools]".
  const more =
    picker.kind === "tree" && !picker.loading
      ? ` (${shown.length === 0 ? 0 : picker.selected + 1}/${shown.length})${treeFilterLabel(treeFilterModeOf(picker.filterMode))} ·`
      : shown.length > page
        ? ` ${picker.selected + 1}/${shown.length} ·`
        : "";
  const hint =
    picker.hint ??
    (picker.kind === "tree"
      ? "enter switch · L label · type to filter · esc close"
      : "enter choose · type to filter · esc close");
  rows.push(theme.fg("dim", truncate(`${more} ${hint}`, width)));
  return rows;
}
