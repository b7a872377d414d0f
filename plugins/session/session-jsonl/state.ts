/**
 * What survives a reload of the store: which session is open and where its leaf is. A session on disk is
 * re-read from its file by the next generation; a session that is not on disk (in memory, or new and not
 * yet written because pi writes a file only once the first assistant message arrives) carries its
 * entries here.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { SessionEntry } from "pi-host";
import type { StateSpec } from "pi-host";

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
   * The entries (an array), when they are not on disk. Declared as Any so that recording state after each
   * append stays O(1): an array schema is checked item by item, which made 20,000 in-memory appends
   * quadratic (3 s). The next generation checks the entries when it indexes them (`restoredEntries`).
   */
  unwritten: Type.Optional(Type.Any()),
  /**
   * With `unwritten` on a session that has a file: how many of those entries are in the file. The rest
   * are entries a failed write left out, to be written by the next append.
   */
  savedCount: Type.Optional(Type.Number()),
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

/** The entries state carried, checked: an array of objects with a string `type` and `id`. */
export function restoredEntries(unwritten: unknown): SessionEntry[] {
  const ok =
    Array.isArray(unwritten) &&
    unwritten.every(
      (e) => e !== null && typeof e === "object" && typeof e.type === "string" && typeof e.id === "string",
    );
  if (!ok) throw new Error("session-jsonl state holds unwritten entries that are not session entries");
  return unwritten as SessionEntry[];
}
