/**
 * User-given paths (--skill, --prompt-template) resolved as pi resolves them: a leading `~` is the home
 * folder, anything relative starts at the base folder.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Expands a leading `~` and resolves a relative path against `base`, as pi does for --skill paths. */
export function resolveUserPath(path: string, base: string): string {
  const trimmed = path.trim();
  if (trimmed === "~") return homedir();
  if (trimmed.startsWith("~/")) return join(homedir(), trimmed.slice(2));
  return resolve(base, trimmed);
}
