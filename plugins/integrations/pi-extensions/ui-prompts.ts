/**
 * pi 1.6.0's `ui_prompt_start` / `ui_prompt_end`: the span in which an extension dialog waits for the
 * user, so status integrations can say "waiting for user" rather than "running". Nested or overlapping
 * dialogs are one outer span; handlers are not awaited before the dialog shows or closes.
 */
import type { PiEvent } from "./events.js";

/** What kind of dialog waits (pi's UIPromptKind). */
export type UiPromptKind = "select" | "confirm" | "input" | "editor" | "custom";

/** Counts open dialogs and reports the outer span's start and end. */
export class UiPromptSpans {
  private open = 0;

  constructor(private readonly emit: (event: PiEvent) => void) {}

  /** Runs `dialog` inside the span. */
  async around<T>(kind: UiPromptKind, title: string | undefined, dialog: () => Promise<T>): Promise<T> {
    if (this.open++ === 0)
      this.emit({ type: "ui_prompt_start", reason: "ui_prompt", kind, ...(title !== undefined && { title }) });
    try {
      return await dialog();
    } finally {
      if (--this.open === 0) this.emit({ type: "ui_prompt_end", reason: "ui_prompt", kind });
    }
  }
}
