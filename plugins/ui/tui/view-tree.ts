/**
 * `/tree` as pi 1.6.0 has it: the session tree under one of pi's filters (the `treeFilterMode` setting
 * picks the first; `app.tree.filter.*` keys set, toggle and cycle them), and, on choosing an entry off
 * the current point, pi's "Summarize branch?" question (no summary, a summary, or one with typed
 * instructions; `branchSummary.skipPrompt` skips it) before moving there through `agent/session`'s
 * `navigateTree`, which has the compaction plugin summarize the branch being left.
 */
import { BRANCH_SUMMARY_CANCELLED, type TuiKey } from "pi-host";
import * as editor from "./editor.js";
import { filtered, keepInView, pickerKey, visibleRows } from "./picker.js";
import { sessionChangeAllowed } from "./session-gate.js";
import type { Picker, PickerItem, ViewState } from "./state.js";
import { contentText, notice } from "./transcript.js";
import { TREE_FILTER_MODES, type TreeFilterMode, treeFilterModeOf, treeItems } from "./tree-items.js";
import { syncCall, type ViewActions } from "./view-deps.js";
import type { IsAction } from "./view-keys.js";

/** pi's three answers to "Summarize branch?". */
export const SUMMARY_CHOICES = ["No summary", "Summarize", "Summarize with custom prompt"] as const;

/** The status shown while the branch left is summarized (Esc, `app.interrupt`, cancels it). */
const SUMMARIZING = "Summarizing branch... (esc to cancel)";

/** The tree settings that apply when `/tree` opens. */
async function treeSettings(view: ViewActions, cwd: string): Promise<{ mode: TreeFilterMode; skipPrompt: boolean }> {
  const settings = view.deps.settings;
  const values = settings?.available === true ? await settings.api.get(cwd).catch(() => ({})) : {};
  const branchSummary = (values as { branchSummary?: { skipPrompt?: unknown } }).branchSummary;
  return {
    mode: treeFilterModeOf((values as { treeFilterMode?: unknown }).treeFilterMode),
    skipPrompt: branchSummary?.skipPrompt === true,
  };
}

/** Opens the tree at once (loading), under the `treeFilterMode` setting; `selectId` is selected, else the leaf. */
export function openTree(view: ViewActions, s: ViewState, query: string, selectId?: string): void {
  if (view.deps.store.available && syncCall(() => view.deps.store.api.tree(), []).length === 0) {
    notice(s, "No entries in session");
    return;
  }
  s.picker = {
    kind: "tree",
    title: "Session Tree",
    // pi's help rows, for the keys this tree has.
    header: [
      "↑/↓ move · enter switch · shift+l label · type to search",
      "filters ctrl+d/t/u/l/a · cycle ctrl+o/shift+ctrl+o",
    ],
    hint: "esc close",
    query,
    items: [],
    selected: 0,
    scroll: 0,
    loading: true,
  };
  s.completion = null;
  treeSettings(view, s.cwd).then(
    ({ mode }) =>
      view.later((state) => {
        const picker = state.picker;
        if (picker?.kind !== "tree" || !picker.loading) return;
        picker.filterMode = mode;
        picker.items = treeItems(view.deps.store, mode);
        picker.loading = false;
        const leaf = syncCall(() => view.deps.store.api.leafId(), null);
        select(picker, selectId ?? leaf ?? undefined, view.terminalHeight());
      }),
    (error: unknown) =>
      view.later((state) => {
        state.picker = null;
        notice(state, `Session Tree: ${(error as Error).message}`, "error");
      }),
  );
}

/** Selects the row of `entryId`, else of its nearest shown ancestor, else the last row. */
function select(picker: Picker, entryId: string | undefined, height: number): void {
  const shown = filtered(picker);
  const parents = new Map(picker.items.map((item) => [item.value, item.parent]));
  let index = -1;
  for (let id = entryId; id !== undefined && index < 0; id = parents.get(id)) {
    index = shown.findIndex(({ item }) => item.value === id);
    if (!parents.has(id)) break;
  }
  picker.selected = index >= 0 ? index : Math.max(0, shown.length - 1);
  picker.scroll = Math.max(0, picker.selected - visibleRows(height) + 1);
  keepInView(picker, visibleRows(height));
}

/** The filter a key asks for, or undefined when it is no filter key (pi's toggles go back to default). */
function filterFor(current: TreeFilterMode, is: IsAction): TreeFilterMode | undefined {
  if (is("app.tree.filter.default")) return "default";
  const toggles: Array<[string, TreeFilterMode]> = [
    ["app.tree.filter.noTools", "no-tools"],
    ["app.tree.filter.userOnly", "user-only"],
    ["app.tree.filter.labeledOnly", "labeled-only"],
    ["app.tree.filter.all", "all"],
  ];
  for (const [action, mode] of toggles) if (is(action)) return current === mode ? "default" : mode;
  const at = TREE_FILTER_MODES.indexOf(current);
  const n = TREE_FILTER_MODES.length;
  if (is("app.tree.filter.cycleBackward")) return TREE_FILTER_MODES[(at - 1 + n) % n];
  if (is("app.tree.filter.cycleForward")) return TREE_FILTER_MODES[(at + 1) % n];
  return undefined;
}

/** Keys while the tree is shown: filters, then the list's own keys; Enter asks about a summary. */
export function treeKey(view: ViewActions, s: ViewState, picker: Picker, key: TuiKey, is: IsAction): void {
  const current = treeFilterModeOf(picker.filterMode);
  const mode = picker.loading ? undefined : filterFor(current, is);
  if (mode !== undefined) {
    const selectedId = filtered(picker)[picker.selected]?.item.value;
    picker.filterMode = mode;
    picker.items = treeItems(view.deps.store, mode);
    select(picker, selectedId, view.terminalHeight());
    return;
  }
  // Escape with a search typed clears the search first, as pi's tree does.
  if (key.name === "escape" && picker.query !== "") {
    picker.query = "";
    picker.selected = 0;
    return;
  }
  const action = pickerKey(picker, key, view.terminalHeight());
  if (action.type === "close") s.picker = null;
  else if (action.type === "label") picker.labelEdit = "";
  else if (action.type === "choose") void chooseEntry(view, s, action.item);
}

/** Enter on a tree entry: the current point is a no-op; elsewhere pi's summary question, unless skipped. */
async function chooseEntry(view: ViewActions, s: ViewState, item: PickerItem): Promise<void> {
  const leaf = syncCall(() => view.deps.store.api.leafId(), null);
  s.picker = null;
  if (item.value === leaf) {
    notice(s, "Already at this point");
    return;
  }
  const { skipPrompt } = await treeSettings(view, s.cwd);
  if (skipPrompt) {
    navigate(view, item.value, false, undefined);
    return;
  }
  view.later((state) => askSummary(state, item.value));
}

/** The "Summarize branch?" list for a move to `entryId`. */
function askSummary(s: ViewState, entryId: string): void {
  s.picker = {
    kind: "branch-summary",
    title: "Summarize branch?",
    hint: "enter choose · esc back to the tree",
    subject: entryId,
    items: SUMMARY_CHOICES.map((label) => ({ label, value: label })),
    selected: 0,
    scroll: 0,
    query: "",
    loading: false,
  };
}

/** Keys of the summary question; Esc goes back to the tree with the entry still selected. */
export function summaryKey(view: ViewActions, s: ViewState, picker: Picker, key: TuiKey): void {
  const target = picker.subject ?? "";
  if (picker.labelEdit !== undefined) return instructionsKey(view, s, picker, key);
  // Typing does not filter three fixed choices.
  if (key.name === "text" || key.name === "paste" || key.name === "backspace") return;
  const action = pickerKey(picker, key, view.terminalHeight());
  if (action.type === "close") openTree(view, s, "", target);
  else if (action.type === "choose") {
    if (action.item.value === SUMMARY_CHOICES[2]) {
      picker.labelEdit = "";
      picker.editPrompt = "Custom summarization instructions:";
      return;
    }
    s.picker = null;
    navigate(view, target, action.item.value === SUMMARY_CHOICES[1], undefined);
  }
}

/** Typing the instructions: Enter summarizes with them, Esc goes back to the three choices. */
function instructionsKey(view: ViewActions, s: ViewState, picker: Picker, key: TuiKey): void {
  if (key.name === "escape" || (key.ctrl && key.name === "c")) {
    picker.labelEdit = undefined;
    picker.editPrompt = undefined;
  } else if (key.name === "backspace") picker.labelEdit = picker.labelEdit!.slice(0, -1);
  else if (key.name === "text" || key.name === "paste") picker.labelEdit += (key.text ?? "").replace(/\n/g, " ");
  else if (key.name === "enter") {
    const instructions = picker.labelEdit!.trim();
    s.picker = null;
    navigate(view, picker.subject ?? "", true, instructions === "" ? undefined : instructions);
  }
}

/**
 * Moves to a tree entry, summarizing the branch left when asked; a user message puts its text back in
 * the editor (when the editor is empty) and moves to just before it, as pi does.
 */
export function navigate(
  view: ViewActions,
  entryId: string,
  summarize: boolean,
  instructions: string | undefined,
): void {
  const { store, session } = view.deps;
  const entry = syncCall(() => store.api.entry(entryId), undefined);
  if (summarize) view.later((state) => (state.statuses.branchSummary = SUMMARIZING));
  const done = (state: ViewState): void => {
    delete state.statuses.branchSummary;
  };
  view.background(
    "tree",
    async () => {
      try {
        // pi extensions' session_before_tree may cancel the move, do it themselves, or choose the instructions.
        const allowed = await sessionChangeAllowed(view, {
          kind: "tree",
          targetId: entryId,
          summarize,
          ...(instructions !== undefined ? { customInstructions: instructions } : {}),
        });
        if (!allowed.go) return { skipped: true };
        const focus = allowed.customInstructions ?? instructions;
        // The user committed to moving: a running answer stops first, as in pi.
        if (syncCall(() => session.api.state(), undefined)?.isStreaming === true) await session.api.abort();
        let text: string | undefined;
        let target: string | null = entryId;
        if (entry?.type === "message" && entry.message.role === "user") {
          text = contentText((entry.message as { content: string }).content);
          target = entry.parentId;
        }
        const options = summarize ? { summarize: true, ...(focus !== undefined ? { instructions: focus } : {}) } : {};
        // Before the first message there is no entry to move to (nor to hang a summary on).
        if (target === null) store.api.branch(null);
        else await session.api.navigateTree(target, options);
        return { text };
      } catch (error) {
        view.later(done);
        // Esc while the summary was written: pi says so and shows the tree again, the entry selected.
        if ((error as Error)?.message === BRANCH_SUMMARY_CANCELLED) return { cancelled: true };
        throw error;
      }
    },
    (result: { text?: string; cancelled?: boolean; skipped?: boolean }) =>
      view.later((state) => {
        done(state);
        if (result.skipped) return;
        if (result.cancelled) {
          notice(state, BRANCH_SUMMARY_CANCELLED);
          openTree(view, state, "", entryId);
          return;
        }
        view.rebuild(state);
        if (result.text !== undefined && state.editor.text.trim() === "") editor.setText(state, result.text);
        notice(state, "Navigated to selected point");
      }),
  );
}
