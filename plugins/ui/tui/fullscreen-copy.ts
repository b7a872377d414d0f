/**
 * Copy on select: the selected transcript text onto the clipboard (a clipboard tool, or OSC 52 with the
 * next frame, as `/copy` does), confirmed by a hint above the editor.
 */
import { copyToClipboard } from "pi-host";
import { notice } from "./transcript.js";
import type { ViewActions } from "./view-deps.js";

/** Copies `text` without blocking the key; a failure becomes an error notice. */
export function copySelection(view: ViewActions, text: string): void {
  if (text === "") return;
  view.background(
    "copy",
    () => copyToClipboard(text),
    (result) =>
      view.later((state) => {
        if (!result.copied) {
          notice(state, `Could not copy: ${result.reason}`, "error");
          return;
        }
        if (result.osc52 !== undefined) view.writeToTerminal(result.osc52);
        state.hint = "Copied the selection";
      }),
  );
}
