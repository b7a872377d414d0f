/**
 * The one place that picks an SQLite driver. better-sqlite3 is a native module built for one Node ABI
 * (the Node 20 it was installed with), so under a newer Node whose built-in `node:sqlite` exists (22.5+)
 * that one is used; otherwise better-sqlite3. Both are loaded on first use only, never at import, so a
 * distribution that does not open a database never loads either.
 */
import { createRequire } from "node:module";

/** A prepared statement, as both drivers shape it. */
export interface Statement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** An open database: statements, plain SQL, and closing. */
export interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

type Opener = (file: string) => Database;
let opener: Opener | undefined;

/** Opens (creating) `file` in WAL mode with synchronous=NORMAL: a commit survives a crash of the process. */
export function openDatabase(file: string): Database {
  opener ??= chooseDriver();
  const db = opener(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;");
  return db;
}

function chooseDriver(): Opener {
  const builtin = loadBuiltin();
  if (builtin !== undefined) return (file) => new builtin.DatabaseSync(file) as unknown as Database;
  const require = createRequire(import.meta.url);
  let BetterSqlite: new (file: string) => Database;
  try {
    BetterSqlite = require("better-sqlite3") as new (file: string) => Database;
  } catch (error) {
    throw new Error(
      `the SQLite session store needs better-sqlite3 12.11.1 (npm i -E better-sqlite3@12.11.1) or Node 22.5+: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  return (file) => new BetterSqlite(file);
}

/** `node:sqlite` where this Node has it, with its one-time experimental warning kept off the user's terminal. */
function loadBuiltin(): { DatabaseSync: new (file: string) => unknown } | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltin !== "function") return undefined;
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (/SQLite/i.test(text)) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return getBuiltin("node:sqlite") as { DatabaseSync: new (file: string) => unknown } | undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}
