/**
 * Print mode (`pi -p`): send the user's messages one after another, wait for each run, then print the
 * final answer's text and nothing else, so scripts can capture it. A failed or aborted answer prints its
 * error on stderr and exits 1; a message handled without a model turn (an extension's `/command`) is a
 * success. The host's stop signal (Ctrl+C) aborts the run in progress.
 */
import type { AgentSession, SessionEvent } from "pi-host";
import type { AssistantMessage } from "pi-host";
import type { Mode, ModeInput, ModeIO } from "pi-host";
import type { Handle } from "pi-host";

/** What print mode needs: the session, and the session events while it runs. */
export interface PrintModeDeps {
  session: Handle<AgentSession>;
  /** Adds a listener for session events; returns the function that removes it. */
  subscribe(listener: (event: SessionEvent) => void): () => void;
}

/** Builds the "print" mode. */
export function createPrintMode(deps: PrintModeDeps): Mode {
  return {
    name: "print",
    run: (input, io) => runPrint(deps, input, io),
  };
}

async function runPrint(deps: PrintModeDeps, input: ModeInput, io: ModeIO): Promise<number> {
  const { session } = deps;
  // Every assistant message that ended, in order; a prompt's answer is the last one it added.
  const answers: AssistantMessage[] = [];
  let stopped = false;
  let finished = false;
  // Model turns started so far: a prompt that started none was handled without the model (an extension's
  // `/command`, an input hook), which is a success with nothing to print, as in pi.
  let turnsStarted = 0;
  // The last failure to write the session: the answer is still printed, then the run exits 1.
  let unsaved: string | undefined;
  // Stopping is best effort: the session may already be gone when the stop arrives late.
  const abort = (): void => {
    if (finished) return;
    Promise.resolve()
      .then(() => session.api.abort())
      .catch(() => undefined);
  };
  const unsubscribe = deps.subscribe((event) => {
    if (event.type === "agent_start") turnsStarted++;
    if (event.type === "message_end" && event.message.role === "assistant")
      answers.push(event.message as AssistantMessage);
    else if (event.type === "notice" && event.level !== "info") io.stderr.write(`${oneLine(event.message)}\n`);
    else if (event.type === "session_save_error") {
      if (event.reason === "write") unsaved = event.error;
      else io.stderr.write(`${oneLine(event.error)}\n`);
    }
    // A stop that came while the session was still starting up had no run to abort; abort it now.
    else if (event.type === "agent_start" && stopped) abort();
  });
  void io.stopped.then(() => {
    stopped = true;
    abort();
  });
  try {
    for (const [index, text] of input.messages.entries()) {
      if (stopped) return fail(io, "aborted");
      const before = answers.length;
      const turnsBefore = turnsStarted;
      const images = index === 0 && input.images.length > 0 ? input.images : undefined;
      await session.api.prompt(text, images === undefined ? undefined : { images });
      const answer = answers.length > before ? answers[answers.length - 1] : undefined;
      if (answer !== undefined && (answer.stopReason === "error" || answer.stopReason === "aborted"))
        return fail(io, answer.errorMessage || `request ${answer.stopReason}`);
      // Stopped between answers (during a tool call): the run ended early without a failed answer.
      if (stopped) return fail(io, "aborted");
      if (answer === undefined && turnsStarted > turnsBefore) return fail(io, "the agent gave no answer");
    }
    const final = answers[answers.length - 1];
    for (const block of final?.content ?? []) if (block.type === "text") io.stdout.write(`${block.text}\n`);
    if (unsaved !== undefined)
      return fail(io, `${unsaved}; the answer was printed but the session is not saved in full (exit code 1)`);
    return 0;
  } catch (error) {
    return fail(io, error instanceof Error ? error.message : String(error));
  } finally {
    finished = true;
    unsubscribe();
  }
}

function fail(io: ModeIO, message: string): number {
  io.stderr.write(`${oneLine(message)}\n`);
  return 1;
}

/** Errors go out as one line, so a script's log stays one entry per failure. */
function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, " ").trim();
}
