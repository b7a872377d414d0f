/**
 * Print mode and a session that cannot be saved: the answer is printed all the same; a failed write then
 * ends the run with one stderr line and exit 1, while a deleted file that was written again is one
 * stderr line and exit 0 (nothing was lost).
 */
import { describe, expect, it } from "vitest";
import type { AgentSession, SessionEvent } from "../../../contracts/agent-session.js";
import type { AssistantMessage } from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { createPrintMode } from "../../../plugins/modes/mode-print/print-mode.js";
import { testIO } from "./mode-io.js";

const ANSWER = {
  role: "assistant",
  content: [{ type: "text", text: "the answer" }],
  stopReason: "stop",
  timestamp: 1,
} as unknown as AssistantMessage;

/** A session whose prompt answers and reports `problem` while saving it. */
function sessionReporting(problem: Extract<SessionEvent, { type: "session_save_error" }>): {
  session: Handle<AgentSession>;
  subscribe: (l: (e: SessionEvent) => void) => () => void;
} {
  const listeners = new Set<(event: SessionEvent) => void>();
  const emit = (event: SessionEvent): void => {
    for (const listener of listeners) listener(event);
  };
  const session = {
    api: {
      prompt: async () => {
        emit(problem);
        emit({ type: "message_end", message: ANSWER });
        return undefined;
      },
    },
  } as unknown as Handle<AgentSession>;
  return { session, subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)) };
}

describe("print mode when the session cannot be saved", () => {
  it("prints the answer, then one line saying it is not saved, and exits 1", async () => {
    const mode = createPrintMode(
      sessionReporting({
        type: "session_save_error",
        reason: "write",
        path: "/s/a.jsonl",
        error: "cannot save the session to /s/a.jsonl: ENOSPC: no space left on device",
      }),
    );
    const io = testIO();
    expect(await mode.run({ messages: ["hi"], images: [] }, io)).toBe(1);
    expect(io.stdout.text).toBe("the answer\n");
    expect(io.stderr.text).toBe(
      "cannot save the session to /s/a.jsonl: ENOSPC: no space left on device; the answer was printed but the session is not saved in full (exit code 1)\n",
    );
  });

  it("reports a re-created session file in one line and exits 0", async () => {
    const error = "session file /s/a.jsonl was deleted while in use; it is written again with the whole session so far";
    const mode = createPrintMode(
      sessionReporting({ type: "session_save_error", reason: "deleted", path: "/s/a.jsonl", error }),
    );
    const io = testIO();
    expect(await mode.run({ messages: ["hi"], images: [] }, io)).toBe(0);
    expect(io.stdout.text).toBe("the answer\n");
    expect(io.stderr.text).toBe(`${error}\n`);
  });
});
