/**
 * The TUI tells the user when the session cannot be saved: a `session_save_error` event becomes a notice
 * in the transcript (an error for a failed write, a warning for a file that was re-created).
 */
import { describe, expect, it } from "vitest";
import { initialViewState } from "../../../plugins/ui/tui/state.js";
import { applyEvent } from "../../../plugins/ui/tui/transcript.js";

describe("session save errors in the TUI", () => {
  it("shows a failed write as an error notice that says the entries are kept", () => {
    const state = initialViewState();
    applyEvent(state, {
      type: "session_save_error",
      reason: "write",
      path: "/s/a.jsonl",
      error: "cannot save the session to /s/a.jsonl: ENOSPC: no space left on device",
    });
    expect(state.entries.at(-1)).toMatchObject({
      kind: "notice",
      level: "error",
      text: "cannot save the session to /s/a.jsonl: ENOSPC: no space left on device (kept in memory; saved with the next write that succeeds)",
    });
  });

  it("shows a re-created file as a warning", () => {
    const state = initialViewState();
    applyEvent(state, {
      type: "session_save_error",
      reason: "deleted",
      path: "/s/a.jsonl",
      error: "session file /s/a.jsonl was deleted while in use; it is written again with the whole session so far",
    });
    expect(state.entries.at(-1)).toMatchObject({
      kind: "notice",
      level: "warning",
      text: expect.stringContaining("was deleted while in use"),
    });
  });
});
