/**
 * The terminal view's pickers (models, sessions to resume, messages to fork from, the session tree):
 * opening one while its items load, its keys, labels on tree entries, and acting on the choice.
 */
import type { KeyOutcome, ThinkingLevel, TuiKey } from "pi-host";
import { COMMAND_PICKERS, commandPickerKey, settingsEditKey } from "./command-pickers.js";
import * as editor from "./editor.js";
import { filtered, pickerKey, visibleRows } from "./picker.js";
import type { Picker, PickerItem, ViewState } from "./state.js";
import { resumeKey, resumeRenameKey } from "./resume-picker.js";
import { notice } from "./transcript.js";
import { treeFilterModeOf, treeItems } from "./tree-items.js";
import type { ViewActions } from "./view-deps.js";
import type { IsAction } from "./view-keys.js";
import { summaryKey, treeKey } from "./view-tree.js";
import { sessionChangeAllowed } from "./session-gate.js";

/** Opens a picker at once, showing it loading; its items arrive from `load`, the current one selected. */
export function openPicker(
  view: ViewActions,
  s: ViewState,
  spec: Pick<Picker, "kind" | "title" | "query">,
  load: () => Promise<PickerItem[]>,
): void {
  s.picker = { ...spec, items: [], selected: 0, scroll: 0, loading: true };
  s.completion = null;
  const kind = spec.kind;
  load().then(
    (items) =>
      view.later((state) => {
        if (state.picker?.kind !== kind) return;
        state.picker.items = items;
        state.picker.loading = false;
        const current = filtered(state.picker).findIndex(({ item }) => item.current === true && kind !== "tree");
        const leaf =
          kind === "tree"
            ? filtered(state.picker).findIndex(({ item }) => item.detail?.includes("current") === true)
            : -1;
        state.picker.selected = Math.max(0, leaf >= 0 ? leaf : current);
        state.picker.scroll = Math.max(0, state.picker.selected - visibleRows(view.terminalHeight()) + 1);
      }),
    (error: unknown) =>
      view.later((state) => {
        state.picker = null;
        notice(state, `${spec.title}: ${(error as Error).message}`, "error");
      }),
  );
}

/** Keys while a picker is shown: move, filter, choose, close, or start a label. */
export function handlePickerKey(view: ViewActions, s: ViewState, picker: Picker, key: TuiKey, is: IsAction): void {
  if (COMMAND_PICKERS.has(picker.kind)) return commandPickerKey(view, s, picker, key, is);
  if (picker.kind === "tree") return treeKey(view, s, picker, key, is);
  if (picker.kind === "branch-summary") return summaryKey(view, s, picker, key, is);
  if (picker.kind === "resume" && !picker.loading && resumeKey(view, s, picker, is)) return;
  // pi's "set as default" keys: choose the row and save it to the global settings.
  const save =
    (picker.kind === "model" && is("app.models.save")) || (picker.kind === "thinking" && is("app.thinking.save"));
  const chosen = save ? filtered(picker)[picker.selected]?.item : undefined;
  if (chosen !== undefined) {
    s.picker = null;
    choose(view, picker, chosen);
    saveDefault(view, s, picker.kind, chosen.value);
    return;
  }
  const action = pickerKey(picker, key, view.terminalHeight(), is);
  if (action.type === "close") s.picker = null;
  else if (action.type === "label") picker.labelEdit = "";
  else if (action.type === "choose") {
    s.picker = null;
    choose(view, picker, action.item);
  }
}

/** Keys while a tree entry's label is typed: Enter saves it (empty removes it), Esc cancels. */
export function handleLabelKey(view: ViewActions, s: ViewState, picker: Picker, key: TuiKey): KeyOutcome {
  if (picker.kind === "settings" || picker.kind === "bug") return settingsEditKey(view, s, picker, key);
  if (picker.kind === "branch-summary") {
    summaryKey(view, s, picker, key);
    return {};
  }
  if (picker.kind === "resume") {
    resumeRenameKey(view, s, picker, key);
    return {};
  }
  if (key.name === "escape" || (key.ctrl && key.name === "c")) picker.labelEdit = undefined;
  else if (key.name === "backspace") picker.labelEdit = picker.labelEdit!.slice(0, -1);
  else if (key.name === "text" || key.name === "paste") picker.labelEdit += (key.text ?? "").replace(/\n/g, " ");
  else if (key.name === "enter") {
    const choice = filtered(picker)[picker.selected];
    const label = picker.labelEdit!.trim();
    picker.labelEdit = undefined;
    if (choice !== undefined) {
      try {
        view.deps.store.api.appendLabel(choice.item.value, label === "" ? undefined : label);
        picker.items = treeItems(view.deps.store, treeFilterModeOf(picker.filterMode));
      } catch (error) {
        notice(s, `label: ${(error as Error).message}`, "error");
      }
    }
  }
  return {};
}

/** Saves a chosen model (`defaultProvider`, `defaultModel`) or thinking level (`defaultThinkingLevel`) as the default. */
function saveDefault(view: ViewActions, s: ViewState, kind: Picker["kind"], value: string): void {
  const settings = view.deps.settings;
  if (settings === undefined || !settings.available) {
    notice(s, "Cannot save: no plugin provides the settings contract.", "error");
    return;
  }
  const slash = value.indexOf("/");
  view.background(
    "save default",
    async () => {
      if (kind === "model") {
        await settings.api.set(s.cwd, "defaultProvider", value.slice(0, slash), "global");
        await settings.api.set(s.cwd, "defaultModel", value.slice(slash + 1), "global");
      } else await settings.api.set(s.cwd, "defaultThinkingLevel", value, "global");
    },
    () =>
      view.later((state) =>
        notice(state, kind === "model" ? `Default model: ${value}` : `Default thinking level: ${value}`),
      ),
  );
}

/** Acts on the chosen item: a model, a session to resume, a message to fork from, a thinking level. */
function choose(view: ViewActions, picker: Picker, item: PickerItem): void {
  const session = view.deps.session;
  switch (picker.kind) {
    case "model": {
      const slash = item.value.indexOf("/");
      view.background("model", () => session.api.setModel(item.value.slice(0, slash), item.value.slice(slash + 1)));
      return;
    }
    case "resume":
      view.background("resume", async () => {
        if ((await sessionChangeAllowed(view, { kind: "resume", targetSessionFile: item.value })).go)
          await session.api.switchSession(item.value);
      });
      return;
    case "fork":
      view.background("fork", async () => {
        if (!(await sessionChangeAllowed(view, { kind: "fork", entryId: item.value })).go) return;
        const result = await session.api.fork(item.value);
        view.later((state) => {
          editor.setText(state, result.text);
          notice(state, "Forked to new session");
        });
      });
      return;
    case "thinking":
      view.background("thinking", () => session.api.setThinkingLevel(item.value as ThinkingLevel));
      return;
  }
}
