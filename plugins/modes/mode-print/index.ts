/**
 * The print mode plugin (`pi -p "..."`): provides the "print" mode. It talks to the agent session
 * through its contract and hears the session's events on the kernel bus, so either side can be
 * reloaded or replaced without the other noticing.
 */
import { AgentSessionContract, SESSION_EVENT, type SessionEvent } from "pi-host";
import { ModeContract } from "pi-host";
import { definePlugin } from "pi-host";
import { createPrintMode } from "./print-mode.js";

export default definePlugin({
  id: "mode-print",
  version: "1.0.0",
  description: "Print mode: send the messages, print the final answer's text, exit 1 on an error",
  provides: [ModeContract],
  requires: [AgentSessionContract],
  setup(ctx) {
    const listeners = new Set<(event: SessionEvent) => void>();
    ctx.on(SESSION_EVENT, (event: SessionEvent) => {
      for (const listener of listeners) listener(event);
    });
    const mode = createPrintMode({
      session: ctx.use(AgentSessionContract),
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    ctx.provide(ModeContract, mode, { key: mode.name });
  },
});
