/**
 * Which optional system tools (rg, fd, tmux, git, hyperfine) this machine has, so a test that needs one
 * skips with a printed reason on a fresh machine instead of failing, while the Node fallbacks stay tested.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** True when one of `names` is an executable file in a folder on PATH (looked up once, at import time of the caller). */
export function hasSystemTool(...names: string[]): boolean {
  for (const name of names) {
    for (const dir of (process.env.PATH ?? "").split(delimiter)) {
      if (dir === "") continue;
      try {
        accessSync(join(dir, name), constants.X_OK);
        return true;
      } catch {
        // not in this folder
      }
    }
  }
  return false;
}

/**
 * Whether the tool is there; when it is not, prints one line naming the tool and what is skipped, so a
 * skipped run says why. Use as `describe.skipIf(!requireSystemTool(...))`.
 */
export function requireSystemTool(label: string, names: string[], skipped: string): boolean {
  const present = hasSystemTool(...names);
  if (!present) console.warn(`[skip] ${label} is not on PATH: skipping ${skipped}`);
  return present;
}
