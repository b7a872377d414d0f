/**
 * The read tool's path lookup: pi-host's `resolveToCwd`, plus the macOS screenshot-name spellings pi
 * tries when nothing exists at the plain path.
 */
import { existsSync } from "node:fs";
import { resolveToCwd } from "pi-host";

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
