/**
 * Path handling for the edit tool, the way pi resolves a model's path: a leading "@" is dropped,
 * exotic Unicode spaces become plain spaces, "~" is the home folder, and relative paths resolve
 * against the session's working folder. The lock key follows symlinks so two names of one file share
 * one lock.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** The absolute path `path` names, seen from `cwd`. */
export function resolveToCwd(path: string, cwd: string): string {
  const cleaned = (path.startsWith("@") ? path.slice(1) : path).replace(UNICODE_SPACES, " ");
  let expanded = cleaned;
  if (cleaned === "~") expanded = homedir();
  else if (cleaned.startsWith("~/")) expanded = homedir() + cleaned.slice(1);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/** The path to lock for writes to `absolutePath`: its real path, or its real folder's when it is new. */
export function lockKeyFor(absolutePath: string): string {
  try {
    return realpathSync.native(absolutePath);
  } catch {
    try {
      return join(realpathSync.native(dirname(absolutePath)), basename(absolutePath));
    } catch {
      return absolutePath;
    }
  }
}
