/**
 * Turns the path a model sends into an absolute path, the way pi does: a leading "@" (models copy it
 * from @file mentions) is dropped, exotic Unicode spaces become plain spaces, "~" is the home folder,
 * and anything relative resolves against the session's working folder.
 */
import { existsSync } from "node:fs";
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

/**
 * Like resolveToCwd, but when nothing exists there it tries the spellings macOS gives screenshot
 * names (a narrow no-break space before AM/PM, decomposed accents, a curly apostrophe), because a
 * model types those names with plain characters.
 */
export function resolveReadPath(path: string, cwd: string): string {
  const resolved = resolveToCwd(path, cwd);
  if (existsSync(resolved)) return resolved;
  const decomposed = resolved.normalize("NFD");
  const variants = [
    resolved.replace(/ (AM|PM)\./gi, "\u202F$1."),
    decomposed,
    resolved.replace(/'/g, "\u2019"),
    decomposed.replace(/'/g, "\u2019"),
  ];
  return variants.find((variant) => variant !== resolved && existsSync(variant)) ?? resolved;
}
