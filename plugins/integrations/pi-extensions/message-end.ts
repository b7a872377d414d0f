/**
 * pi's `message_end` handlers, which may return `{ message }` to replace a message before the session
 * saves it (chained: each handler sees the previous replacement; the role must stay). Through the hooks
 * contract's `endMessage` the loop asks before it saves each prompt, answer and tool result, and waits
 * only when some extension listens to `message_end`. The handlers run in the observer queue, after the
 * events before them, and the queued `message_end` that follows is not handled twice.
 */
import type { AgentMessage } from "pi-host";
import type { ExtensionRuntime } from "./runtime.js";

/** Why a replacement of a message that was saved before its handlers ran is not applied. */
export const SAVED_BEFORE_HANDLERS = new Error(
  "a custom message sent while the agent is idle is saved as it is sent (pi does not ask message_end about it); the replacement was not applied",
);

/** The pending run of events in order, off the agent's path, and which `message_end`s already ran. */
export class ObserverQueue {
  private tail: Promise<void> = Promise.resolve();
  /** Messages whose `message_end` handlers ran before the session saved them. */
  readonly endedBeforeSave = new WeakSet<object>();

  /** Runs `work` after everything queued so far; later work waits for it. */
  add<T>(work: () => Promise<T>): Promise<T> {
    const done = this.tail.then(work);
    this.tail = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  /** Resolves once everything queued so far has run. */
  drained(): Promise<void> {
    return this.tail;
  }
}

/** The hooks contract's `endMessage`: undefined at once when no extension listens to `message_end`. */
export function endMessage(
  runtime: ExtensionRuntime,
  message: AgentMessage,
): Promise<AgentMessage | undefined> | undefined {
  if (!runtime.isLoaded || !runtime.hasHandlers("message_end")) return undefined;
  runtime.observerQueue.endedBeforeSave.add(message);
  return runtime.observerQueue.add(async () => {
    let current = message;
    const ctx = runtime.context();
    for (const { extension, handler } of runtime.handlers("message_end")) {
      try {
        const result = (await handler({ type: "message_end", message: current }, ctx)) as
          | { message?: unknown }
          | undefined;
        if (result?.message === undefined) continue;
        const next = replacement(current, result.message);
        current = next;
      } catch (error) {
        runtime.report(extension, "message_end", error);
      }
    }
    if (current === message) return undefined;
    runtime.observerQueue.endedBeforeSave.add(current);
    return current;
  });
}

/** A handler's replacement, checked as pi checks it: an object with the same role; null content becomes []. */
function replacement(current: AgentMessage, value: unknown): AgentMessage {
  const message = value as AgentMessage | null;
  if (message === null || typeof message !== "object" || message.role !== current.role)
    throw new Error(
      `the replacement must be a message with the same role ("${current.role}"), got ${message === null || typeof message !== "object" ? String(message) : `role "${String(message.role)}"`}`,
    );
  const content = (message as { content?: unknown }).content;
  return content === null || content === undefined ? ({ ...message, content: [] } as AgentMessage) : message;
}
