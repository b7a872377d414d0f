/**
 * The JSON mode plugin (`pi --mode json "..."`): provides the "json" mode, which writes the session
 * header and then every session event as one JSON line. It talks to the agent session through its
 * contract and hears events on the kernel bus.
 */
import { AgentSessionContract, SESSION_EVENT, type SessionEvent } from "pi-host";
import { ModeContract } from "pi-host";
import { definePlugin } from "pi-host";
import { createJsonMode } from "./json-mode.js";

export default definePlugin({
  id: "mode-json",
  version: "1.0.0",
  description:
    "JSON mode: the session header, then one JSON line per session event (deltas, or pi's exact shape with --compat-events)",
  provides: [ModeContract],
  requires: [AgentSessionContract],
  setup(ctx) {
    const listeners = new Set<(event: SessionEvent) => void>();
    ctx.on(SESSION_EVENT, (event: SessionEvent) => {
      for (const listener of listeners) listener(event);
    });
    const mode = createJsonMode({
      session: ctx.use(AgentSessionContract),
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    ctx.provide(ModeContract, mode, { key: mode.name });
  },
});
