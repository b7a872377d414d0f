/**
 * The session-sqlite plugin: the session store (SessionStoreContract) on SQLite, one database per session
 * folder, each append committed before it returns. A distribution chooses it instead of session-jsonl;
 * `pi session export --jsonl` and `pi session import` move sessions between the two. The SQLite driver
 * loads on the first call that opens a database, never at setup.
 */
import { Type } from "@sinclair/typebox";
import {
  agentDir,
  definePlugin,
  HostEnvironmentContract,
  readHostEnvironment,
  SESSION_SAVE_ERROR_EVENT,
  SessionStoreContract,
} from "pi-host";
import { closeDatabases } from "./database.js";
import { sqliteStoreState } from "./state.js";
import { SqliteSessionStore } from "./store.js";

export default definePlugin({
  id: "session-sqlite",
  version: "1.0.0",
  description:
    "Sessions in SQLite (WAL): each append committed before it returns; same tree, fork and listing as JSONL",
  provides: [SessionStoreContract],
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** Folder holding `sessions/`; default PI_CODING_AGENT_DIR, else ~/.pi/agent. */
    agentDir: Type.Optional(Type.String({ minLength: 1 })),
  }),
  state: sqliteStoreState,
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    const store = new SqliteSessionStore({
      get agentDir() {
        return agentDir(ctx.config.agentDir ?? readHostEnvironment(host)?.agentDir);
      },
      getState: () => ctx.getState(),
      setState: (next) => ctx.setState(next),
      report: (problem) => ctx.emit(SESSION_SAVE_ERROR_EVENT, problem),
    });
    ctx.provide(SessionStoreContract, store);
    ctx.onDispose(() => closeDatabases(), "close the session databases");
  },
});
