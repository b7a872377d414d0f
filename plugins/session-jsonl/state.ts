/**
 * What survives a reload of the store: which session is open and where its leaf is. A session on disk is
 * re-read from its file by the next generation; a session that is not on disk (in memory, or new and not
 * yet written because pi writes a file only once the first assistant message arrives) carries its
 * entries here.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { StateSpec } from "../../kernel/index.js";

const HeaderSchema = Type.Object({
  type: Type.Literal("session"),
  version: Type.Literal(3),
  id: Type.String(),
  timestamp: Type.String(),
  cwd: Type.String(),
  parentSession: Type.Optional(Type.String()),
});

const OpenSessionSchema = Type.Object({
  header: HeaderSchema,
  /** The session file; absent for an in-memory session. */
  path: Type.Optional(Type.String()),
  /** Where a fork of this session is written. */
  sessionDir: Type.Optional(Type.String()),
  leafId: Type.Union([Type.String(), Type.Null()]),
  /**
   * The entries, when they are not on disk. Checked as a whole when the next generation indexes them, not
   * on every append (a per-append deep check of a long session would cost O(n) each time).
   */
  unwritten: Type.Optional(Type.Array(Type.Any())),
});

export const StoreStateSchema = Type.Object({ open: Type.Optional(OpenSessionSchema) });

/** The store's reloadable state. */
export type StoreState = Static<typeof StoreStateSchema>;

/** The open session as the state records it. */
export type OpenSessionState = Static<typeof OpenSessionSchema>;

/** The plugin's `state` declaration. Version 1 is the only one so far; anything else is refused clearly. */
export const storeState: StateSpec<StoreState> = {
  version: 1,
  schema: StoreStateSchema,
  initial: () => ({}),
  migrate(previous, fromVersion) {
    if (fromVersion !== 1) throw new Error(`session-jsonl cannot take over store state of version ${fromVersion}`);
    return previous as StoreState;
  },
};
