/**
 * Paths the model writes, resolved the way pi resolves them: a leading "@" (models copy it from @file
 * mentions) is dropped, exotic Unicode spaces become plain ones, "~" is the home folder, and relative
 * paths start at the session's folder. Every file tool resolves its path argument with this one function.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, posix, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** The absolute path `path` names, seen from `cwd`. */
export function resolveToCwd(path: string, cwd: string): string {
  let expanded = (path.startsWith("@") ? path.slice(1) : path).replace(UNICODE_SPACES, " ");
  if (expanded === "~") expanded = homedir();
  else if (expanded.startsWith("~/")) expanded = homedir() + expanded.slice(1);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/**
 * The absolute POSIX path `path` names on another machine, seen from its folder `cwd`, with the same
 * rules as resolveToCwd ("@" dropped, exotic spaces made plain) and "~" meaning that machine's `home`.
 */
export function resolveToRemoteFolder(path: string, cwd: string, home: string): string {
  let expanded = (path.startsWith("@") ? path.slice(1) : path).replace(UNICODE_SPACES, " ");
  if (expanded === "~") expanded = home;
  else if (expanded.startsWith("~/")) expanded = home + expanded.slice(1);
  return posix.resolve(cwd, expanded);
}

/**
 * The path to lock for writes to `absolutePath`: its real path, or its real folder's when it is new, so
 * two names of one file (symlinks) share one lock in the tools that write.
 */
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
