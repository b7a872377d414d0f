/**
 * `/changelog`: pi-host's own CHANGELOG.md (found next to the package.json of the installed package),
 * read as pi 1.6.0 reads its own: one entry per `## [x.y.z]` heading, shown oldest first so the newest
 * ends next to the editor.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One version's section, heading included. */
export interface ChangelogEntry {
  major: number;
  minor: number;
  patch: number;
  content: string;
}

/** The folder of pi-host's package.json above `from` (this module), or undefined when none is found. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "pi-host") return dir;
      } catch {
        // Not ours; keep looking.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** pi-host's version from its package.json ("unknown" when it cannot be read). */
export function packageVersion(): string {
  const root = packageRoot();
  if (root === undefined) return "unknown";
  try {
    return String((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown }).version);
  } catch {
    return "unknown";
  }
}

/** The entries of a changelog's text, in file order (newest first); text before the first version is left out. */
export function parseChangelog(text: string): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  let current: Omit<ChangelogEntry, "content"> | undefined;
  let lines: string[] = [];
  const flush = (): void => {
    if (current !== undefined && lines.length > 0) entries.push({ ...current, content: lines.join("\n").trim() });
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("## ")) {
      flush();
      const match = /^##\s+\[?(\d+)\.(\d+)\.(\d+)\]?/.exec(line);
      current = match ? { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) } : undefined;
      lines = current ? [line] : [];
    } else if (current !== undefined) lines.push(line);
  }
  flush();
  return entries;
}

/** What `/changelog` shows: "What's New" and every entry oldest first, or pi's line when there are none. */
export function changelogText(root: string | undefined = packageRoot()): string {
  const file = root === undefined ? undefined : join(root, "CHANGELOG.md");
  let entries: ChangelogEntry[] = [];
  if (file !== undefined && existsSync(file)) {
    try {
      entries = parseChangelog(readFileSync(file, "utf8"));
    } catch {
      entries = [];
    }
  }
  const body =
    entries.length > 0
      ? entries
          .reverse()
          .map((e) => e.content)
          .join("\n\n")
      : "No changelog entries found.";
  return `What's New\n\n${body}`;
}
