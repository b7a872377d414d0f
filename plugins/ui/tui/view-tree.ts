/**
 * `/tree` as pi 1.6.0 has it: the session tree under one of pi's filters (the `treeFilterMode` setting
 * picks the first; `app.tree.filter.*` keys set, toggle and cycle them), and, on choosing an entry off
 * the current point, pi's "Summarize branch?" question (no summary, a summary, or one with typed
 * instructions; `branchSummary.skipPrompt` skips it) before moving there through `agent/session`'s
 * `navigateTree`, which has the compaction plugin summarize the branch being left.
 */
import { BRANCH_SUMMARY_CANCELLED, type TuiKey } from "pi-host";
import * as editor from "./editor.js";
import { filtered, keepInView, matchesQuery, pickerKey, visibleRows } from "./picker.js";
import { sessionChangeAllowed } from "./session-gate.js";
import type { Picker, PickerItem, ViewState } from "./state.js";
import { contentText, notice } from "./transcript.js";
import { TREE_FILTER_MODES, type TreeFilterMode, shownTree, treeFilterModeOf, treeItems } from "./tree-items.js";
import { canFold, segmentStartAbove, segmentStartBelow } from "./tree-layout.js";
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
      "↑/↓ move · ←/→ page · ctrl+←/→ branch · enter switch · shift+l label · shift+t label time · type to search",
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
        relayout(view, picker);
        picker.loading = false;
        const leaf = syncCall(() => view.deps.store.api.leafId(), null);
        select(view, picker, selectId ?? leaf ?? undefined);
      }),
    (error: unknown) =>
      view.later((state) => {
        state.picker = null;
        notice(state, `Session Tree: ${(error as Error).message}`, "error");
      }),
  );
}

/** Lays the tree out again under the picker's filter, folds and search. */
function relayout(view: ViewActions, picker: Picker): void {
  picker.items = treeItems(view.deps.store, treeFilterModeOf(picker.filterMode), {
    folded: new Set(picker.folded ?? []),
    labelTimes: picker.labelTimes === true,
    matches: (label, detail) => matchesQuery(picker.query, label, detail),
  });
}

/**
 * pi's branch keys: `app.tree.foldOrUp` folds the selected segment start, else jumps to the segment start
 * above; `app.tree.unfoldOrDown` unfolds it, else jumps to the next segment start or the branch end.
 * Returns whether the key was one of them.
 */
function foldKey(view: ViewActions, picker: Picker, is: IsAction): boolean {
  const up = is("app.tree.foldOrUp");
  if (!up && !is("app.tree.unfoldOrDown")) return false;
  const rows = filtered(picker).map(({ item }) => item.value);
  const id = rows[picker.selected];
  if (id === undefined) return true;
  const nodes = shownTree(picker.items);
  const node = nodes.get(id)!;
  const folded = new Set(picker.folded ?? []);
  let target = id;
  if (up && canFold(node, folded)) folded.add(id);
  else if (!up && folded.has(id)) folded.delete(id);
  else target = up ? segmentStartAbove(node, (at) => rows.indexOf(at)).id : segmentStartBelow(node, folded).id;
  picker.folded = [...folded];
  relayout(view, picker);
  select(view, picker, target);
  return true;
}

/** Selects the row of `entryId`, else of its nearest shown ancestor in the session, else the last row. */
function select(view: ViewActions, picker: Picker, entryId: string | undefined): void {
  const height = view.terminalHeight();
  const rows = new Map(filtered(picker).map(({ item }, index) => [item.value, index]));
  let index: number | undefined;
  for (let id = entryId ?? null, steps = 0; id !== null && index === undefined && steps < 100_000; steps++) {
    index = rows.get(id);
    id = syncCall(() => view.deps.store.api.entry(id!), undefined)?.parentId ?? null;
  }
  picker.selected = index ?? Math.max(0, rows.size - 1);
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
    picker.folded = [];
    relayout(view, picker);
    select(view, picker, selectedId);
    return;
  }
  if (!picker.loading && foldKey(view, picker, is)) return;
  if (!picker.loading && is("app.tree.toggleLabelTimestamp")) {
    picker.labelTimes = picker.labelTimes !== true;
    relayout(view, picker);
    return;
  }
  // ←/→ page through the tree, as in pi.
  const page = picker.loading ? 0 : is("tui.editor.cursorLeft") ? -1 : is("tui.editor.cursorRight") ? 1 : 0;
  if (page !== 0) {
    const last = Math.max(0, filtered(picker).length - 1);
    picker.selected = Math.max(0, Math.min(last, picker.selected + page * visibleRows(view.terminalHeight())));
    keepInView(picker, visibleRows(view.terminalHeight()));
    return;
  }
  // Escape with a search typed clears the search first, as pi's tree does.
  if (key.name === "escape" && picker.query !== "") {
    picker.query = "";
    picker.folded = [];
    relayout(view, picker);
    picker.selected = 0;
    return;
  }
  const query = picker.query;
  const action = pickerKey(picker, key, view.terminalHeight(), is);
  // A changed search lays the tree out again over the entries it matches; folds are cleared, as in pi.
  if (picker.query !== query) {
    picker.folded = [];
    relayout(view, picker);
  }
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
export function summaryKey(view: ViewActions, s: ViewState, picker: Picker, key: TuiKey, is?: IsAction): void {
  const target = picker.subject ?? "";
  if (picker.labelEdit !== undefined) return instructionsKey(view, s, picker, key);
  // Typing does not filter three fixed choices.
  if (key.name === "text" || key.name === "paste" || key.name === "backspace") return;
  const action = pickerKey(picker, key, view.terminalHeight(), is);
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
