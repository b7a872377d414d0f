/**
 * The program status the view reports with each frame (pi's OSC 7501, which the shell sends to terminals
 * that support it): `blocked` while a dialog or a plugin's component waits for the user (the dialog's
 * title; the newest one), `working` during a run or compaction, then how the last run ended — `done`,
 * `error` with the first line of the error, `idle` after an abort — and `idle` at start. The message of
 * `working` and `done` is the session name, as pi sends it; prompts and answers never go out.
 */
import type { SessionEvent, TuiBlocked, TuiProgramStatus } from "pi-host";
import type { ViewState } from "./state.js";

/** The status for the current state; `blocked` is what other plugins' components report (if any). */
export function programStatus(
  s: ViewState,
  blocked: TuiBlocked | undefined,
  sessionName: string | undefined,
): TuiProgramStatus {
  const dialog = s.dialogs[0];
  if (dialog !== undefined) return { state: "blocked", kind: "question", message: dialog.title };
  if (blocked !== undefined) return { state: "blocked", kind: blocked.kind, message: blocked.message };
  const named = sessionName === undefined || sessionName === "" ? {} : { message: sessionName };
  if (s.busy || s.compacting) return { state: "working", ...named };
  const last = s.lastRun;
  if (last === undefined || last.state === "idle") return { state: "idle" };
  if (last.state === "done") return { state: "done", ...named };
  return { state: "error", ...(last.message !== undefined && { message: last.message }) };
}

/** Remembers how a run ended (`agent_end`): its last answer's stop reason. */
export function noteRunEnd(s: ViewState, event: SessionEvent): void {
  if (event.type !== "agent_end") return;
  const answer = [...event.messages].reverse().find((m) => m.role === "assistant") as
    | { stopReason?: string; errorMessage?: string }
    | undefined;
  if (answer?.stopReason === "aborted") s.lastRun = { state: "idle" };
  else if (answer?.stopReason === "error")
    s.lastRun = { state: "error", message: (answer.errorMessage ?? "the request failed").split("\n")[0]!.trim() };
  else s.lastRun = { state: "done" };
}
