/**
 * The prompt editor's keys as the terminal view handles them: editing and moving (emacs-style chords
 * included), history, and the completion list that follows `/` commands and `@` file references.
 */
import type { KeyOutcome, TuiKey } from "pi-host";
import { applyCompletion, computeCompletion, type ExtraCommand } from "./complete.js";
import * as editor from "./editor.js";
import type { ViewState } from "./state.js";

/** A key for the prompt editor: typing, deleting, moving, history, and Tab completion. */
export function editKey(s: ViewState, key: TuiKey, extra: ExtraCommand[]): KeyOutcome {
  const { ctrl, alt } = key;
  switch (key.name) {
    case "text":
    case "paste":
      editor.insert(s, (key.text ?? "").replace(/\r\n?/g, "\n"));
      return afterEdit(s, extra);
    case "space":
      editor.insert(s, " ");
      return afterEdit(s, extra);
    case "backspace":
      if (alt || ctrl) editor.killWordBackward(s);
      else editor.backspace(s);
      return afterEdit(s, extra);
    case "delete":
      if (alt) editor.killWordForward(s);
      else editor.deleteForward(s);
      return afterEdit(s, extra);
    case "left":
      if (alt || ctrl) editor.moveTo(s, editor.wordStartBefore(s.editor.text, s.editor.cursor));
      else editor.left(s);
      return afterMove(s);
    case "right":
      if (alt || ctrl) editor.moveTo(s, editor.wordEndAfter(s.editor.text, s.editor.cursor));
      else editor.right(s);
      return afterMove(s);
    case "home":
      editor.lineStart(s);
      return afterMove(s);
    case "end":
      editor.lineEnd(s);
      return afterMove(s);
    case "up":
      if (!editor.up(s)) editor.historyBack(s);
      return afterMove(s);
    case "down":
      if (!editor.down(s)) editor.historyForward(s);
      return afterMove(s);
    case "tab":
      s.completion = computeCompletion(s.editor, s.cwd, extra);
      if (s.completion?.items.length === 1) {
        s.editor = applyCompletion(s.editor, s.completion);
        s.completion = null;
      }
      return {};
  }
  if (ctrl && !alt) {
    switch (key.name) {
      case "a":
        editor.lineStart(s);
        return afterMove(s);
      case "e":
        editor.lineEnd(s);
        return afterMove(s);
      case "b":
        editor.left(s);
        return afterMove(s);
      case "f":
        editor.right(s);
        return afterMove(s);
      case "k":
        editor.killToLineEnd(s);
        return afterEdit(s, extra);
      case "u":
        editor.killToLineStart(s);
        return afterEdit(s, extra);
      case "w":
        editor.killWordBackward(s);
        return afterEdit(s, extra);
      case "y":
        editor.yank(s);
        return afterEdit(s, extra);
      case "-":
      case "z":
        editor.undo(s);
        return afterEdit(s, extra);
    }
  }
  if (alt && !ctrl) {
    switch (key.name) {
      case "b":
        editor.moveTo(s, editor.wordStartBefore(s.editor.text, s.editor.cursor));
        return afterMove(s);
      case "f":
        editor.moveTo(s, editor.wordEndAfter(s.editor.text, s.editor.cursor));
        return afterMove(s);
      case "d":
        editor.killWordForward(s);
        return afterEdit(s, extra);
      case "y":
        editor.yankPop(s);
        return afterEdit(s, extra);
    }
  }
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
export function completionKey(s: ViewState, key: TuiKey, extra: ExtraCommand[]): boolean {
  const completion = s.completion!;
  if (key.name === "up" || key.name === "down") {
    const n = completion.items.length;
    completion.selected = (completion.selected + (key.name === "up" ? n - 1 : 1)) % n;
    return true;
  }
  if (key.name === "tab" && !key.shift) {
    s.editor = applyCompletion(s.editor, completion);
    s.completion = null;
    afterEdit(s, extra);
    return true;
  }
  if (key.name === "enter" && !key.alt && !key.shift && completion.kind === "file") {
    s.editor = applyCompletion(s.editor, completion);
    s.completion = null;
    return true;
  }
  if (key.name === "enter" && !key.alt && !key.shift && completion.kind === "command") {
    const typed = s.editor.text.trim();
    if (!completion.items.some((i) => i.value === typed)) s.editor = applyCompletion(s.editor, completion);
    s.completion = null;
    return false;
  }
  return false;
}
