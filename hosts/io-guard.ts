/**
 * How the host sees I/O started during a plugin's declare-only setup, handed to the kernel as
 * `watchSetup`: the kernel refuses the plugin with DeclareOnlyError naming what it started. Setup is synchronous, so every async
 * resource created while it runs (a file read, a socket, a timer, a child process) was created by it.
 * Promises, ticks and microtasks are not I/O and pass. Synchronous fs calls leave no trace and cannot be
 * seen; the documentation says so.
 */
import { createHook } from "node:async_hooks";

const HARMLESS = new Set(["PROMISE", "TickObject", "Microtask"]);

/** Runs `body` and returns its result plus the kinds of async resources it created. */
export function runWatchingIo<T>(body: () => T): { result: T; io: string[] } {
  const io: string[] = [];
  const hook = createHook({
    init(_id, type) {
      if (!HARMLESS.has(type)) io.push(type);
    },
  });
  hook.enable();
  try {
    return { result: body(), io };
  } finally {
    hook.disable();
  }
}
