/**
 * The prompt editor's keys as the terminal view handles them: editing and moving (emacs-style chords
 * included), history, and the completion list that follows `/` commands and `@` file references.
 */
import type { KeyOutcome, TuiKey } from "pi-host";
import { applyCompletion, computeCompletion, type ExtraCommand } from "./complete.js";
import * as editor from "./editor.js";
import type { ViewState } from "./state.js";

/** Whether a key triggers a keybindings.json action (the view's current bindings). */
export type IsAction = (action: string) => boolean;

/** Editor actions in the order they are tried, and what each does. */
const EDITOR_ACTIONS: Array<[string, (s: ViewState) => void, "edit" | "move"]> = [
  ["tui.editor.historyPrevious", (s) => editor.historyBack(s), "move"],
  ["tui.editor.historyNext", (s) => editor.historyForward(s), "move"],
  ["tui.editor.cursorUp", (s) => editor.up(s) || editor.historyBack(s), "move"],
  ["tui.editor.cursorDown", (s) => editor.down(s) || editor.historyForward(s), "move"],
  [
    "tui.editor.cursorWordLeft",
    (s) => editor.moveTo(s, editor.wordStartBefore(s.editor.text, s.editor.cursor)),
    "move",
  ],
  ["tui.editor.cursorWordRight", (s) => editor.moveTo(s, editor.wordEndAfter(s.editor.text, s.editor.cursor)), "move"],
  ["tui.editor.cursorLeft", (s) => editor.left(s), "move"],
  ["tui.editor.cursorRight", (s) => editor.right(s), "move"],
  ["tui.editor.cursorLineStart", (s) => editor.lineStart(s), "move"],
  ["tui.editor.cursorLineEnd", (s) => editor.lineEnd(s), "move"],
  ["tui.editor.deleteWordBackward", (s) => editor.killWordBackward(s), "edit"],
  ["tui.editor.deleteWordForward", (s) => editor.killWordForward(s), "edit"],
  ["tui.editor.deleteCharBackward", (s) => editor.backspace(s), "edit"],
  ["tui.editor.deleteCharForward", (s) => editor.deleteForward(s), "edit"],
  ["tui.editor.deleteToLineStart", (s) => editor.killToLineStart(s), "edit"],
  ["tui.editor.deleteToLineEnd", (s) => editor.killToLineEnd(s), "edit"],
  ["tui.editor.yankPop", (s) => editor.yankPop(s), "edit"],
  ["tui.editor.yank", (s) => editor.yank(s), "edit"],
  ["tui.editor.undo", (s) => editor.undo(s), "edit"],
];

/**
 * A key for the prompt editor: typing, deleting, moving, history, and Tab completion, each through its
 * keybindings.json action.
 */
export function editKey(s: ViewState, key: TuiKey, extra: ExtraCommand[], is: IsAction, rows = 24): KeyOutcome {
  const jump = jumpKey(s, key, is);
  if (jump !== undefined) return jump;
  // pi's editor hands `tui.input.copy` to the app (Ctrl+C clears or exits there) and edits nothing with it.
  if (is("tui.input.copy")) return {};
  const pageUp = is("tui.editor.pageUp");
  if (pageUp || is("tui.editor.pageDown")) {
    // pi's page: 30% of the terminal, at least 5 lines.
    for (let i = Math.max(5, Math.floor(rows * 0.3)); i > 0; i--) if (!(pageUp ? editor.up(s) : editor.down(s))) break;
    return afterMove(s);
  }
  for (const [action, run, kind] of EDITOR_ACTIONS) {
    if (!is(action)) continue;
    run(s);
    return kind === "edit" ? afterEdit(s, extra) : afterMove(s);
  }
  if (is("tui.input.tab")) {
    s.completion = computeCompletion(s.editor, s.cwd, extra);
    if (s.completion?.items.length === 1) {
      s.editor = applyCompletion(s.editor, s.completion);
      s.completion = null;
    }
    return {};
  }
  if (key.name === "text" || key.name === "paste") {
    editor.insert(s, (key.text ?? "").replace(/\r\n?/g, "\n"));
    return afterEdit(s, extra);
  }
  if (key.name === "space" && !key.ctrl && !key.alt) {
    editor.insert(s, " ");
    return afterEdit(s, extra);
  }
  return {};
}

/**
 * pi's jump to a character: `tui.editor.jumpForward` / `jumpBackward` wait for the next typed character
 * and move the cursor to its next (previous) occurrence; the same keys again cancel, any other key cancels
 * and acts as itself. Undefined when the key is not part of a jump.
 */
function jumpKey(s: ViewState, key: TuiKey, is: IsAction): KeyOutcome | undefined {
  const direction = s.jump;
  const again = is("tui.editor.jumpForward") || is("tui.editor.jumpBackward");
  if (direction !== undefined) {
    s.jump = undefined;
    if (again) return {};
    const chars = [...(key.text ?? "")];
    if (key.name === "text" && chars.length === 1) {
      const { text, cursor } = s.editor;
      const at =
        direction === "forward"
          ? text.indexOf(chars[0]!, cursor + 1)
          : cursor > 0
            ? text.lastIndexOf(chars[0]!, cursor - 1)
            : -1;
      if (at >= 0) editor.moveTo(s, at);
      return afterMove(s);
    }
    return undefined;
  }
  if (!again) return undefined;
  s.jump = is("tui.editor.jumpForward") ? "forward" : "backward";
  return {};
}

/** After an edit: the completion list follows the text. */
export function afterEdit(s: ViewState, extra: ExtraCommand[]): KeyOutcome {
  const before = s.editor.text.slice(0, s.editor.cursor);
  s.completion = before.startsWith("/") || before.includes("@") ? computeCompletion(s.editor, s.cwd, extra) : null;
  return {};
}

/** After a cursor move: the completion list closes. */
export function afterMove(s: ViewState): KeyOutcome {
  s.completion = null;
  return {};
}

/** Keys the completion list takes; false to let the editor have the key. */
export function completionKey(s: ViewState, extra: ExtraCommand[], is: IsAction): boolean {
  const completion = s.completion!;
  const up = is("tui.select.up");
  if (up || is("tui.select.down")) {
    const n = completion.items.length;
    completion.selected = (completion.selected + (up ? n - 1 : 1)) % n;
    return true;
  }
  if (is("tui.input.tab")) {
    s.editor = applyCompletion(s.editor, completion);
    s.completion = null;
    afterEdit(s, extra);
    return true;
  }
  const submit = is("tui.input.submit");
  if (submit && completion.kind === "file") {
    s.editor = applyCompletion(s.editor, completion);
    s.completion = null;
    return true;
  }
  if (submit && completion.kind === "command") {
    const typed = s.editor.text.trim();
    if (!completion.items.some((i) => i.value === typed)) s.editor = applyCompletion(s.editor, completion);
    s.completion = null;
    return false;
  }
  return false;
}
