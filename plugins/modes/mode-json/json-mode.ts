/**
 * JSON mode (`pi --mode json "..."`): the session header, then one JSON line per session event with pi's
 * event type names, as the run goes. By default events have pi 1.6.0's shapes, with deltas merged (see
 * kit/session/wire-events.ts and wire-stream.ts); `--compat-events` writes pi 0.73's whole-partial shapes. Notices go to stderr; the exit code is 0 when the
 * last answer succeeded and 1 when it failed, was aborted, or a prompt was refused.
 */
import type { AgentSession, SessionEvent } from "pi-host";
import type { AssistantMessage } from "pi-host";
import type { Mode, ModeInput, ModeIO } from "pi-host";
import type { Handle } from "pi-host";
import { WireStream } from "pi-host";
import { jsonLine } from "./json-line.js";
import { sessionHeader } from "./session-header.js";

/** What JSON mode needs: the session, and the session events while it runs. */
export interface JsonModeDeps {
  session: Handle<AgentSession>;
  /** Adds a listener for session events; returns the function that removes it. */
  subscribe(listener: (event: SessionEvent) => void): () => void;
}

/** Session events that are ours, not pi's: the header replaces session_change; model_change is in the messages. */
const NOT_PI_EVENTS = new Set(["session_change", "model_change", "notice"]);

/** Builds the "json" mode. */
export function createJsonMode(deps: JsonModeDeps): Mode {
  return {
    name: "json",
    run: (input, io) => runJson(deps, input, io),
  };
}

async function runJson(deps: JsonModeDeps, input: ModeInput, io: ModeIO): Promise<number> {
  const { session } = deps;
  const wire = new WireStream((record) => io.stdout.write(jsonLine(record)), {
    compatEvents: input.compatEvents === true,
  });
  let headerWritten = false;
  // Every assistant message that ended, in order; a prompt's answer is the last one it added.
  const answers: AssistantMessage[] = [];
  let stopped = false;
  let finished = false;
  const abort = (): void => {
    if (finished) return;
    Promise.resolve()
      .then(() => session.api.abort())
      .catch(() => undefined);
  };

  // A session opened before this run (an embedder's) has its header now; otherwise it comes with the
  // session_change event of the first prompt, before any other event.
  const open = session.api.state();
  if (open.sessionId !== undefined) {
    wire.record(sessionHeader({ id: open.sessionId, path: open.sessionFile }));
    headerWritten = true;
  }
  const unsubscribe = deps.subscribe((event) => {
    if (event.type === "session_change") {
      if (!headerWritten && event.session !== undefined) {
        wire.record(sessionHeader(event.session));
        headerWritten = true;
      }
      return;
    }
    if (event.type === "notice" && event.level !== "info")
      io.stderr.write(`${event.message.replace(/\s*\r?\n\s*/g, " ")}\n`);
    if (NOT_PI_EVENTS.has(event.type)) return;
    if (event.type === "message_end" && event.message.role === "assistant")
      answers.push(event.message as AssistantMessage);
    if (event.type === "agent_start" && stopped) abort();
    wire.event(event);
  });
  void io.stopped.then(() => {
    stopped = true;
    abort();
  });
  try {
    for (const [index, text] of input.messages.entries()) {
      if (stopped) return 1;
      const before = answers.length;
      const images = index === 0 && input.images.length > 0 ? input.images : undefined;
      await session.api.prompt(text, images === undefined ? undefined : { images });
      const answer = answers.length > before ? answers[answers.length - 1] : undefined;
      if (stopped || answer === undefined || answer.stopReason === "error" || answer.stopReason === "aborted") return 1;
    }
    return 0;
  } catch (error) {
    // A refused prompt (unknown model, no model) produced no event; say why on stderr.
    io.stderr.write(`${(error instanceof Error ? error.message : String(error)).replace(/\s*\r?\n\s*/g, " ")}\n`);
    return 1;
  } finally {
    finished = true;
    unsubscribe();
    wire.flush();
  }
}
