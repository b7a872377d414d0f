/**
 * What /resume does to a session file that is not the open one: rename it (one `session_info` line
 * appended after its leaf, as pi's picker does, the file never rewritten) and delete it (pi's way: the
 * `trash` command first, the file removed for good when trash is missing or fails).
 */
import { existsSync } from "node:fs";
import { unlink } from "node:fs/promises";
import { checkSessionEntries, newEntryId, type SessionInfoEntry, SessionTree, childProcess } from "pi-host";
import { AppendFile } from "./append-file.js";
import { loadSessionFile } from "./load-session-file.js";

/** Appends a `session_info` entry naming the session in `path` (an existing session file, not the open one). */
export function renameSessionFile(path: string, name: string): void {
  if (!existsSync(path)) throw new Error(`no session file at ${path}`);
  const loaded = loadSessionFile(path);
  if (loaded.kind !== "session") throw new Error(`not a session file (it is empty): ${path}`);
  const tree = new SessionTree(checkSessionEntries(loaded.entries, path).entries);
  const entry: SessionInfoEntry = {
    type: "session_info",
    id: newEntryId(tree.ids),
    parentId: tree.leafId,
    timestamp: new Date().toISOString(),
    name,
  };
  const file = new AppendFile(path);
  try {
    file.append(`${loaded.endsWithNewline ? "" : "\n"}${JSON.stringify(entry)}\n`);
  } finally {
    file.close();
  }
}

/** Deletes the session file at `path`: moved to the trash when the `trash` command does it, else unlinked. */
export async function deleteSessionFile(path: string): Promise<{ method: "trash" | "deleted" }> {
  if (!existsSync(path)) throw new Error(`no session file at ${path}`);
  const trash = childProcess().spawnSync("trash", path.startsWith("-") ? ["--", path] : [path], { encoding: "utf8" });
  if (trash.status === 0 || !existsSync(path)) return { method: "trash" };
  await unlink(path);
  return { method: "deleted" };
}
