/**
 * What survives a reload of the SQLite store: the open session's header, path and leaf; committed rows
 * are re-read from the database, and entries not yet committed travel here.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { StateSpec } from "pi-host";

const OpenSchema = Type.Object({
  header: Type.Any(),
  path: Type.Optional(Type.String()),
  sessionDir: Type.Optional(Type.String()),
  leafId: Type.Union([Type.String(), Type.Null()]),
  written: Type.Boolean(),
  savedCount: Type.Number(),
  /** Entries not yet committed (an array; Any so recording state stays O(1) per append). */
  unwritten: Type.Optional(Type.Any()),
});

const SqliteStateSchema = Type.Object({ open: Type.Optional(OpenSchema) });

/** The store's reloadable state. */
export type SqliteStoreState = Static<typeof SqliteStateSchema>;

/** The plugin's `state` declaration (version 1). */
export const sqliteStoreState: StateSpec<SqliteStoreState> = {
  version: 1,
  schema: SqliteStateSchema,
  initial: () => ({}),
  migrate(previous, fromVersion) {
    if (fromVersion !== 1) throw new Error(`session-sqlite cannot take over store state of version ${fromVersion}`);
    return previous as SqliteStoreState;
  },
};
