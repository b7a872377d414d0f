/**
 * Paths the model writes, resolved the way pi resolves them: a leading "@" (from @file mentions) is
 * dropped, odd Unicode spaces become plain ones, "~" is the home folder, and relative paths start at the
 * session's folder.
 */
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** Resolves `path` against `cwd`. */
export function resolveToCwd(path: string, cwd: string): string {
  let expanded = (path.startsWith("@") ? path.slice(1) : path).replace(UNICODE_SPACES, " ");
  if (expanded === "~") expanded = homedir();
  else if (expanded.startsWith("~/")) expanded = homedir() + expanded.slice(1);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}
