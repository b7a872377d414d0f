/**
 * pi's `!command` and `!!command` in the editor: the line runs in the shell of the session's folder, its
 * command and output show in the transcript as they end, and the run is recorded in the session as a
 * `bashExecution` message. `!` lets the model read it on the next request; `!!` records it with
 * `excludeFromContext`, so it stays out of the model's context. The runner is kit's, shared with the
 * RPC `bash` command (same output cleaning and tail limits).
 */
import { bashExecutionMessage, runUserBash } from "pi-host";
import type { ViewState } from "./state.js";
import { addEntry, bashOutputText, notice, touch } from "./transcript.js";
import type { ViewActions } from "./view-deps.js";

/** A submitted `!`/`!!` line as a shell command; undefined for any other line (and a bare `!`). */
export function parseBang(text: string): { command: string; excludeFromContext: boolean } | undefined {
  if (!text.startsWith("!")) return undefined;
  const excludeFromContext = text.startsWith("!!");
  const command = text.slice(excludeFromContext ? 2 : 1).trim();
  return command === "" ? undefined : { command, excludeFromContext };
}

/** The user's shell run in progress (at most one), so Esc can cancel it. */
export interface BangRun {
  abort: AbortController;
}

/**
 * Runs one `!` line: shows a running box, fills it with the output when the command ends, then records
 * the run (after any agent run, as the session's `recordMessage` waits for it). `done` is called once
 * the run is over, whatever happened.
 */
export function runBang(
  view: ViewActions,
  s: ViewState,
  bang: { command: string; excludeFromContext: boolean },
  done: () => void,
): BangRun {
  const entry = addEntry(s, {
    kind: "tool",
    text: "",
    name: "bash",
    args: { command: bang.command, ...(bang.excludeFromContext && { excludeFromContext: true }) },
    status: "running",
  });
  const run: BangRun = { abort: new AbortController() };
  const { session, spawn } = view.deps;
  view.background("bash", async () => {
    try {
      const result = await runUserBash(bang.command, s.cwd, spawn, run.abort.signal);
      view.later((state) => {
        const shown = state.entries.find((e) => e.id === entry.id);
        if (shown === undefined) return;
        shown.text = bashOutputText({ ...result });
        shown.status = result.exitCode === 0 ? "done" : "error";
        touch(shown);
      });
      await session.api.recordMessage(bashExecutionMessage(bang.command, result, bang.excludeFromContext));
    } catch (error) {
      view.later((state) => {
        const shown = state.entries.find((e) => e.id === entry.id);
        if (shown !== undefined) {
          shown.status = "error";
          touch(shown);
        }
        notice(state, `bash: ${(error as Error).message}`, "error");
      });
    } finally {
      done();
    }
  });
  return run;
}
