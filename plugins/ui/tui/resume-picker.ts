/**
 * /resume's session list keys as pi's picker has them: `app.session.togglePath` (each session's file),
 * `toggleNamedFilter` (named sessions only), `toggleSort` (threaded, recent, relevance),
 * `delete`/`deleteNoninvasive` (a session that is not open, after "Delete session?" is confirmed) and
 * `rename` (a new name typed under the list, written as a `session_info` entry of that session).
 */
import type { TuiKey } from "pi-host";
import { filtered } from "./picker.js";
import { nextResumeSort, resumeSortLabel } from "./resume-order.js";
import type { Picker, PickerItem, ViewState } from "./state.js";
import { oneLine } from "./text.js";
import { syncCall, type ViewActions } from "./view-deps.js";
import type { IsAction } from "./view-keys.js";

/** The key hint of the list (and of the delete confirmation). */
const LIST_HINT =
  "enter resume · ctrl+s sort · ctrl+n named · ctrl+p path · ctrl+d delete · ctrl+r rename · type to filter · esc close";
const CONFIRM_HINT = "Delete session? enter confirm · escape/ctrl+c cancel";

/** The rows of this folder's sessions, newest first; the open one marked current. */
export async function loadResumeItems(view: ViewActions, cwd: string): Promise<PickerItem[]> {
  const current = syncCall(() => view.deps.session.api.state(), undefined)?.sessionFile;
  const list = await view.deps.store.api.list({ cwd });
  return list.map((x) => {
    const item: PickerItem = {
      label: oneLine(x.name ?? x.firstMessage ?? x.id) || "(empty)",
      value: x.path,
      detail: `${x.modified.replace("T", " ").slice(0, 16)} · ${x.messageCount} msgs`,
      current: x.path === current,
      named: x.name !== undefined && x.name.trim() !== "",
      modified: Date.parse(x.modified) || 0,
    };
    if (x.parentSession !== undefined) item.parentPath = x.parentSession;
    return item;
  });
}

/** Sets the lines under the title: the sort mode, the last outcome; and the hint for the state the list is in. */
export function refreshResumeHeader(picker: Picker): void {
  picker.header = [`Sort: ${resumeSortLabel(picker.sortMode)}`];
  if (picker.status !== undefined) picker.header.push(picker.status.text);
  picker.hint = picker.confirmDelete !== undefined ? CONFIRM_HINT : LIST_HINT;
}

/** A key of the /resume list; returns whether it was one of the session keys (or the pending confirmation took it). */
export function resumeKey(view: ViewActions, s: ViewState, picker: Picker, is: IsAction): boolean {
  if (picker.confirmDelete !== undefined) {
    // pi's confirmation takes every key: Enter deletes, Esc keeps, anything else is ignored.
    const path = picker.confirmDelete;
    if (is("tui.select.confirm")) deleteSession(view, s, path);
    if (is("tui.select.confirm") || is("tui.select.cancel")) picker.confirmDelete = undefined;
    refreshResumeHeader(picker);
    return true;
  }
  const selected = filtered(picker)[picker.selected]?.item;
  if (is("app.session.toggleSort")) {
    picker.sortMode = nextResumeSort(picker.sortMode);
    picker.selected = Math.max(
      0,
      filtered(picker).findIndex(({ item }) => item.value === selected?.value),
    );
    picker.scroll = 0;
  } else if (is("app.session.togglePath")) picker.showPath = picker.showPath !== true;
  else if (is("app.session.toggleNamedFilter")) toggleNamed(picker, selected);
  else if (is("app.session.delete")) startDelete(picker, selected);
  else if (is("app.session.rename")) {
    if (selected === undefined) return true;
    picker.renaming = selected.value;
    picker.labelEdit = selected.named === true ? selected.label : "";
    picker.editPrompt = "Rename Session:";
    picker.hint = "enter save · esc cancel";
  } else if (is("app.session.deleteNoninvasive")) {
    // Only with an empty query; otherwise the key edits the query, as pi forwards it to the search input.
    if (picker.query === "") startDelete(picker, selected);
    else {
      picker.query = picker.query.slice(0, -1);
      picker.selected = 0;
    }
  } else return false;
  refreshResumeHeader(picker);
  return true;
}

/** Keys while a new name is typed: Enter saves a non-empty name, Esc goes back to the list. */
export function resumeRenameKey(view: ViewActions, s: ViewState, picker: Picker, key: TuiKey): void {
  const stop = (): void => {
    picker.labelEdit = undefined;
    picker.renaming = undefined;
    picker.editPrompt = undefined;
    refreshResumeHeader(picker);
  };
  if (key.name === "escape" || (key.ctrl && key.name === "c")) return stop();
  if (key.name === "backspace") picker.labelEdit = picker.labelEdit!.slice(0, -1);
  else if (key.name === "text" || key.name === "paste") picker.labelEdit += (key.text ?? "").replace(/\n/g, " ");
  else if (key.name === "enter") {
    const name = picker.labelEdit!.trim();
    const path = picker.renaming;
    if (name === "" || path === undefined) return; // pi keeps asking until a name is typed
    stop();
    mutate(view, s, "rename", () => view.deps.store.api.renameSession(path, name), `Session renamed: ${name}`);
  }
}

/** Asks "Delete session?" for the selected row; the open session is refused, as in pi. */
function startDelete(picker: Picker, selected: PickerItem | undefined): void {
  if (selected === undefined) return;
  if (selected.current === true) {
    picker.status = { text: "Cannot delete the currently active session", level: "error" };
    return;
  }
  picker.status = undefined;
  picker.confirmDelete = selected.value;
}

function deleteSession(view: ViewActions, s: ViewState, path: string): void {
  mutate(
    view,
    s,
    "delete",
    () => view.deps.store.api.deleteSession(path),
    (result) => (result.method === "trash" ? "Session moved to trash" : "Session deleted"),
  );
}

/** Runs a delete or rename, then lists the sessions again with the outcome under the title. */
function mutate<T>(
  view: ViewActions,
  s: ViewState,
  what: "delete" | "rename",
  operation: () => Promise<T>,
  success: string | ((value: T) => string),
): void {
  const cwd = s.cwd;
  view.background(`${what} session`, async () => {
    let status: NonNullable<Picker["status"]>;
    try {
      const value = await operation();
      status = { text: typeof success === "string" ? success : success(value), level: "info" };
    } catch (error) {
      status = { text: `Failed to ${what}: ${(error as Error)?.message ?? String(error)}`, level: "error" };
    }
    const items = await loadResumeItems(view, cwd);
    view.later((state) => {
      const picker = state.picker;
      if (picker?.kind !== "resume") return;
      const selected = filtered(picker)[picker.selected]?.item.value;
      picker.items = picker.namedOnly === true ? items.filter((item) => item.named === true) : items;
      picker.unnamed = picker.namedOnly === true ? items.filter((item) => item.named !== true) : undefined;
      const at = filtered(picker).findIndex(({ item }) => item.value === selected);
      picker.selected = Math.max(0, Math.min(at >= 0 ? at : picker.selected, filtered(picker).length - 1));
      picker.scroll = 0;
      picker.status = status;
      refreshResumeHeader(picker);
    });
  });
}

/** `app.session.toggleNamedFilter`: only the named sessions, and back; the selection stays on its session. */
function toggleNamed(picker: Picker, selected: PickerItem | undefined): void {
  if (picker.namedOnly === true) {
    picker.items = [...picker.items, ...(picker.unnamed ?? [])];
    picker.unnamed = undefined;
  } else {
    picker.unnamed = picker.items.filter((item) => item.named !== true);
    picker.items = picker.items.filter((item) => item.named === true);
  }
  picker.namedOnly = picker.namedOnly !== true;
  // Keep the recent-first order, and the selection on the same session when it is still listed.
  picker.items.sort((a, b) => (b.modified ?? 0) - (a.modified ?? 0));
  const at = filtered(picker).findIndex(({ item }) => item.value === selected?.value);
  picker.selected = Math.max(0, at);
  picker.scroll = 0;
}
