/**
 * The session-jsonl plugin: provides the session store (SessionStoreContract) in pi's version-3 JSONL
 * format, so pi opens our session files and we open pi's. Setup only declares; the first call opens
 * files. The open session and its leaf are plugin state, so reloading this plugin keeps them.
 */
import { Type } from "@sinclair/typebox";
import { SESSION_SAVE_ERROR_EVENT, SessionStoreContract, agentDir } from "pi-host";
import { definePlugin } from "pi-host";
import { HostEnvironmentContract, readHostEnvironment } from "pi-host";
import { storeState } from "./state.js";
import { JsonlSessionStore } from "./store.js";

export default definePlugin({
  id: "session-jsonl",
  version: "1.0.0",
  description:
    "Sessions as pi's JSONL trees: whole-line appends, persisted leaf, fork, listing, v1/v2 upgrade, torn-line repair",
  provides: [SessionStoreContract],
  // The host's agent folder, when this plugin's config names none.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** Folder holding `sessions/`; default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
  }),
  state: storeState,
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    const store = new JsonlSessionStore({
      // Read when asked: the host's handle answers only once the boot has committed.
      get agentDir() {
        return agentDir(ctx.config.agentDir ?? readHostEnvironment(host)?.agentDir);
      },
      getState: () => ctx.getState(),
      setState: (next) => ctx.setState(next),
      report: (problem) => ctx.emit(SESSION_SAVE_ERROR_EVENT, problem),
    });
    ctx.provide(SessionStoreContract, store);
    ctx.onDispose(() => store.close(), "close the session file");
  },
});
