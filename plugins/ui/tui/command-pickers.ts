/**
 * The keys and choices of the pickers ./view-commands-more.ts opens: /scoped-models (toggles that stay
 * open, Ctrl+A/X/P/S), /trust, /import's confirmation, /bug's transcript question and /settings (Enter
 * cycles a boolean or a choice, or starts typing a value; each change is saved at once, atomically, by
 * the settings contract).
 */
import type { KeyOutcome, TuiKey } from "pi-host";
import { BUG_REPORT_ENTRY_TYPE, bugReportFiles, writeBugReport } from "./bug-report.js";
import { packageVersion } from "./changelog.js";
import { filtered, pickerKey } from "./picker.js";
import { nextValue, parseTyped, SETTINGS, settingValue, showValue, type SettingInfo } from "./settings-table.js";
import type { Picker, PickerItem, ViewState } from "./state.js";
import { notice } from "./transcript.js";
import { syncCall, type ViewActions } from "./view-deps.js";

/** The picker kinds handled here. */
export const COMMAND_PICKERS = new Set<Picker["kind"]>(["scoped-models", "trust", "settings", "confirm", "bug"]);

/** The rows of /settings for the merged settings. */
export function settingsItems(settings: Record<string, unknown>): PickerItem[] {
  return SETTINGS.map((info) => ({
    label: info.key,
    value: info.key,
    detail: `${showValue(info, settingValue(settings, info.key))} · ${info.description}${info.globalOnly ? " (global only)" : ""}`,
  }));
}

/** Keys while one of COMMAND_PICKERS is shown. */
export function commandPickerKey(
  view: ViewActions,
  s: ViewState,
  picker: Picker,
  key: TuiKey,
  is?: (action: string) => boolean,
): void {
  if (picker.kind === "scoped-models" && is !== undefined && scopedModelsKey(view, s, picker, is)) return;
  const action = pickerKey(picker, key, view.terminalHeight(), is);
  if (action.type === "close") {
    s.picker = null;
    if (picker.kind === "confirm") notice(s, "Import cancelled");
    if (picker.kind === "bug") notice(s, "Bug report cancelled");
  } else if (action.type === "choose") choose(view, s, picker, action.item);
}

/**
 * pi's model configuration keys (`app.models.*`): enable all (or all matching the search), clear them,
 * toggle the selected model's provider, move the selected model up or down the cycle order, save;
 * false for other keys.
 */
function scopedModelsKey(view: ViewActions, s: ViewState, picker: Picker, is: (action: string) => boolean): boolean {
  const shown = filtered(picker);
  const selected = shown[picker.selected]?.item;
  const up = is("app.models.reorderUp");
  if (is("app.models.enableAll") || is("app.models.clearAll")) {
    const on = is("app.models.enableAll");
    for (const { item } of shown) mark(item, on);
  } else if (is("app.models.toggleProvider")) {
    if (selected === undefined) return true;
    const provider = selected.value.slice(0, selected.value.indexOf("/") + 1);
    const same = picker.items.filter((item) => item.value.startsWith(provider));
    const on = !same.every((item) => item.current === true);
    for (const item of same) mark(item, on);
  } else if (up || is("app.models.reorderDown")) {
    const neighbour = shown[picker.selected + (up ? -1 : 1)];
    if (selected === undefined || neighbour === undefined) return true;
    const from = picker.items.indexOf(selected);
    const to = picker.items.indexOf(neighbour.item);
    picker.items[from] = neighbour.item;
    picker.items[to] = selected;
    picker.selected += up ? -1 : 1;
    picker.reordered = true;
  } else if (is("app.models.save")) {
    saveScope(view, s, picker);
    return true;
  } else return false;
  applyScope(view, picker);
  return true;
}

function mark(item: PickerItem, enabled: boolean): void {
  item.current = enabled;
  item.label = `${enabled ? "✓" : " "} ${item.value}`;
}

/** The enabled models in cycle order, or null when every one is, in the original order (no scope). */
function enabledModels(picker: Picker): string[] | null {
  const enabled = picker.items.filter((item) => item.current === true).map((item) => item.value);
  return enabled.length === picker.items.length && picker.reordered !== true ? null : enabled;
}

/** The session's scope follows each change (pi: session-only until saved). */
function applyScope(view: ViewActions, picker: Picker): void {
  const enabled = enabledModels(picker);
  view.background("scoped models", () => view.deps.session.api.setScopedModels(enabled));
}

/** Ctrl+S: `enabledModels` in the global settings (removed when every model is enabled). */
function saveScope(view: ViewActions, s: ViewState, picker: Picker): void {
  const settings = view.deps.settings;
  if (settings === undefined || !settings.available) {
    notice(s, "Cannot save: no plugin provides the settings contract.", "error");
    return;
  }
  const enabled = enabledModels(picker);
  view.background(
    "save models",
    () => settings.api.set(s.cwd, "enabledModels", enabled ?? undefined, "global"),
    () => view.later((state) => notice(state, "Model selection saved to settings")),
  );
}

/** Enter on a row. */
function choose(view: ViewActions, s: ViewState, picker: Picker, item: PickerItem): void {
  switch (picker.kind) {
    case "scoped-models":
      mark(item, item.current !== true);
      applyScope(view, picker);
      return;
    case "settings":
      changeSetting(view, s, picker, item.value);
      return;
  }
  s.picker = null;
  if (picker.kind === "trust") saveTrust(view, item);
  else if (picker.kind === "confirm") importSession(view, s, item.value === "yes" ? picker.subject : undefined);
  else if (picker.kind === "bug")
    bugReport(view, s, picker.subject ?? "", item.value === "Yes, include the transcript");
}

function saveTrust(view: ViewActions, item: PickerItem): void {
  const trust = view.deps.trust!;
  const updates = JSON.parse(item.value) as Array<{ dir: string; value: boolean | null }>;
  const trusted = updates[0]?.value === true;
  view.background(
    "trust",
    () => trust.api.save(updates),
    () =>
      view.later((state) =>
        notice(
          state,
          `Saved trust decision: ${trusted ? "trusted" : "untrusted"}. Restart pi for this to take effect.`,
        ),
      ),
  );
}

function importSession(view: ViewActions, s: ViewState, path: string | undefined): void {
  if (path === undefined) {
    notice(s, "Import cancelled");
    return;
  }
  view.background(
    "import",
    // Success is the session's own notice ("Session imported from: ..."), which follows its session_change.
    async () => {
      try {
        await view.deps.session.api.importSession(path);
        return undefined;
      } catch (error) {
        return `Failed to import session: ${(error as Error).message}`;
      }
    },
    (failure) => failure !== undefined && view.later((state) => notice(state, failure, "error")),
  );
}

function bugReport(view: ViewActions, s: ViewState, hint: string, includeSession: boolean): void {
  const { session, store } = view.deps;
  view.background(
    "bug report",
    async () => {
      try {
        const state = syncCall(() => session.api.state(), undefined);
        const settings = view.deps.settings?.available ? await view.deps.settings.api.get(s.cwd) : {};
        const { id, files } = bugReportFiles({
          hint: hint === "" ? undefined : hint,
          includeSession,
          version: packageVersion(),
          sessionId: state?.sessionId,
          cwd: s.cwd,
          model: state?.model ? { provider: state.model.provider, id: state.model.id, name: state.model.name } : null,
          thinkingLevel: state?.thinkingLevel,
          settings,
          plugins: (view.deps.plugins() ?? []).map((p) => ({ id: p.id, version: p.version, state: p.state })),
          entries: store.available ? syncCall(() => store.api.path(), []) : [],
        });
        const path = await writeBugReport(s.cwd, id, files);
        if (store.available)
          syncCall(
            () =>
              store.api.appendCustom(BUG_REPORT_ENTRY_TYPE, {
                id,
                hint: hint || null,
                sessionIncluded: includeSession,
                summaryIncluded: false,
                delivery: "zip",
                path,
              }),
            "",
          );
        return { level: "info" as const, message: `Bug report exported to: ${path}\nReport ID: ${id}` };
      } catch (error) {
        return { level: "error" as const, message: `Failed to write bug report: ${(error as Error).message}` };
      }
    },
    (outcome) => view.later((state) => notice(state, outcome.message, outcome.level)),
  );
}

/** /settings Enter: a boolean or choice takes its next value; anything else starts typing (Enter saves). */
function changeSetting(view: ViewActions, s: ViewState, picker: Picker, key: string): void {
  const info = SETTINGS.find((x) => x.key === key);
  if (info === undefined) return;
  if (info.kind === "boolean" || info.kind === "choice") {
    view.background("settings", async () => {
      const current = settingValue(await view.deps.settings!.api.get(s.cwd), key);
      await saveSetting(view, s, info, nextValue(info, current));
    });
    return;
  }
  picker.labelEdit = "";
  picker.subject = key;
}

/**
 * Keys while a /settings value is typed (Enter saves it, empty: back to pi's default; Esc cancels), or
 * /bug's description (Enter goes on to the transcript question; Esc cancels the report).
 */
export function settingsEditKey(view: ViewActions, s: ViewState, picker: Picker, key: TuiKey): KeyOutcome {
  if (picker.kind === "bug" && (key.name === "escape" || (key.ctrl && key.name === "c"))) {
    s.picker = null;
    notice(s, "Bug report cancelled");
  } else if (key.name === "escape" || (key.ctrl && key.name === "c")) picker.labelEdit = undefined;
  else if (key.name === "backspace") picker.labelEdit = picker.labelEdit!.slice(0, -1);
  else if (key.name === "text" || key.name === "paste") picker.labelEdit += (key.text ?? "").replace(/\n/g, " ");
  else if (key.name === "enter" && picker.kind === "bug") {
    picker.subject = (picker.labelEdit ?? "").trim();
    picker.labelEdit = undefined;
  } else if (key.name === "enter") {
    const info = SETTINGS.find((x) => x.key === picker.subject);
    const text = picker.labelEdit ?? "";
    picker.labelEdit = undefined;
    if (info === undefined) return {};
    let value: unknown;
    try {
      value = parseTyped(info, text);
    } catch (error) {
      notice(s, (error as Error).message, "error");
      return {};
    }
    view.background("settings", () => saveSetting(view, s, info, value));
  }
  return {};
}

/** Writes one key to the global settings.json, refreshes the rows, and applies what applies at once. */
async function saveSetting(view: ViewActions, s: ViewState, info: SettingInfo, value: unknown): Promise<void> {
  const settings = view.deps.settings!;
  await settings.api.set(s.cwd, info.key, value, "global");
  const merged = await settings.api.get(s.cwd);
  const session = view.deps.session.api;
  if (info.key === "steeringMode" && typeof value === "string") await session.setSteeringMode(value as "all");
  if (info.key === "followUpMode" && typeof value === "string") await session.setFollowUpMode(value as "all");
  if (info.key === "compaction.enabled" && typeof value === "boolean") await session.setAutoCompaction(value);
  view.later((state) => {
    if (info.key === "theme" && typeof value === "string") view.useTheme(state, value);
    if (state.picker?.kind === "settings") state.picker.items = settingsItems(merged);
    notice(state, `${info.key}: ${showValue(info, settingValue(merged, info.key))} (saved to settings.json)`);
  });
}
