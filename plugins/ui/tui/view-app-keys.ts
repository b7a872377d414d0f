/**
 * The app keys that leave the view for a moment — `app.editor.external` (Ctrl+G) and `app.suspend` (Ctrl+Z),
 * which the shell carries out on the terminal — `app.message.dequeue` (Alt+Up), which puts every queued
 * steering and follow-up message back into the editor, `app.clipboard.pasteImage` (Ctrl+V), and
 * `app.clear` (Ctrl+C: clears the editor; twice in a row exits), as pi 1.6.0 does.
 */
import type { KeyOutcome, TuiKey } from "pi-host";
import { EXTERNAL_EDITOR_FAILED_KEY, EXTERNAL_EDITOR_KEY, SUSPEND_FAILED_KEY } from "pi-host";
import * as editor from "./editor.js";
import type { ViewState } from "./state.js";
import { pasteFromClipboard } from "./view-paste.js";
import type { IsAction } from "./view-keys.js";
import type { TerminalView } from "./view.js";

/** What an app key did, or undefined when `key` is none of them. */
export function appKey(view: TerminalView, s: ViewState, key: TuiKey, is: IsAction): KeyOutcome | undefined {
  if (key.name === EXTERNAL_EDITOR_KEY) {
    setText(s, key.text ?? "");
    return {};
  }
  if (key.name === EXTERNAL_EDITOR_FAILED_KEY || key.name === SUSPEND_FAILED_KEY) {
    s.hint = key.text ?? "External editor failed; prompt unchanged";
    return {};
  }
  if (is("app.clipboard.pasteImage")) {
    pasteFromClipboard(view);
    return {};
  }
  if (is("app.editor.external")) return { externalEditor: { content: s.editor.text } };
  if (is("app.suspend")) return { suspend: true };
  if (is("app.message.dequeue")) {
    dequeue(view);
    return {};
  }
  return undefined;
}

/** pi's restoreQueuedMessagesToEditor: steering then follow-ups, then the current text, blank-line separated. */
function dequeue(view: TerminalView): void {
  view.background(
    "restore queued messages",
    () => view.deps.session.api.clearQueue(),
    ({ steering, followUp }) =>
      view.later((state) => {
        const queued = [...steering, ...followUp];
        state.queue = { steering: [], followUp: [] };
        if (queued.length === 0) {
          state.hint = "No queued messages to restore";
          return;
        }
        const combined = [queued.join("\n\n"), state.editor.text].filter((t) => t.trim() !== "").join("\n\n");
        setText(state, combined);
        state.hint = `Restored ${queued.length} queued message${queued.length > 1 ? "s" : ""} to editor`;
      }),
  );
}

/** Replaces the editor's text (undoable), the cursor at its end. */
function setText(s: ViewState, text: string): void {
  editor.setText(s, text);
  s.completion = null;
}

/** Two Ctrl+C presses within this window exit. */
const DOUBLE_CTRL_C_MS = 2_000;

/** `app.clear` at `now` (ms): clears the editor, or exits when the last press was just before. */
export function ctrlC(s: ViewState, now: number): KeyOutcome {
  if (now - s.ctrlCAt < DOUBLE_CTRL_C_MS) return { exit: true };
  s.ctrlCAt = now;
  if (s.editor.text !== "") editor.setText(s, "");
  s.completion = null;
  s.hint = "Press ctrl+c again to exit";
  return {};
}
