/**
 * Turns the path a model sends into an absolute path, the way pi does: a leading "@" is dropped,
 * exotic Unicode spaces become plain spaces, "~" is the home folder, and anything relative resolves
 * against the session's working folder.
 */
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** The absolute path `path` names, seen from `cwd`. */
export function resolveToCwd(path: string, cwd: string): string {
  const cleaned = (path.startsWith("@") ? path.slice(1) : path).replace(UNICODE_SPACES, " ");
  let expanded = cleaned;
  if (cleaned === "~") expanded = homedir();
  else if (cleaned.startsWith("~/")) expanded = homedir() + cleaned.slice(1);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}
