/**
 * pi 1.6.0's Ctrl+V (`app.clipboard.pasteImage`): an image on the clipboard is saved to a temporary
 * `pi-clipboard-<uuid>.<ext>` file and its path goes into the editor at the cursor — the model reads it
 * with the read tool, as in pi — and a clipboard without an image pastes its text. The clipboard is read
 * through the tools pi uses (kit's `readClipboardImage`: wl-paste, xclip, osascript).
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { imageExtension, readClipboardImage, readClipboardText } from "pi-host";
import * as editor from "./editor.js";
import type { ViewActions } from "./view-deps.js";

/** What Ctrl+V puts in the editor: a saved image's path, else the clipboard's text, else nothing. */
export async function clipboardPaste(): Promise<string | undefined> {
  const image = await readClipboardImage();
  if (image !== null) {
    const file = join(tmpdir(), `pi-clipboard-${randomUUID()}.${imageExtension(image.mimeType)}`);
    writeFileSync(file, image.bytes);
    return file;
  }
  return readClipboardText();
}

/** Runs Ctrl+V without blocking the keys; a failure is pi's "Failed to paste from clipboard" line. */
export function pasteFromClipboard(view: ViewActions): void {
  view.background("Failed to paste from clipboard", clipboardPaste, (text) => {
    if (text === undefined || text === "") return;
    view.later((state) => {
      editor.insert(state, text);
      state.completion = null;
    });
  });
}
