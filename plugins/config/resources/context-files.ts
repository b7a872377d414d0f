/**
 * Project context files, found as pi finds them: `AGENTS.md` (else `CLAUDE.md`; the all-caps `.MD`
 * spellings count too) in the agent folder, then in every folder from the filesystem root down to cwd.
 * Root first, so broader instructions come before the project's own and the nearest file has the last
 * word. A file reached twice (cwd inside the agent folder) is listed once.
 */
import { dirname, join } from "node:path";
import type { ResourceDiagnostic } from "./diagnostics.js";
import type { FileCache } from "./file-cache.js";

/** One context file and its text. */
export interface ContextFile {
  path: string;
  content: string;
}

const CANDIDATES = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

/** The context files for `cwd`, global first, then root → cwd. */
export async function findContextFiles(
  files: FileCache,
  cwd: string,
  agentDir: string,
): Promise<{ files: ContextFile[]; diagnostics: ResourceDiagnostic[] }> {
  const diagnostics: ResourceDiagnostic[] = [];
  const folders: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    folders.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  const found: ContextFile[] = [];
  for (const folder of [agentDir, ...folders]) {
    const file = await contextFileIn(files, folder, diagnostics);
    if (file !== undefined && !found.some((f) => f.path === file.path)) found.push(file);
  }
  return { files: found, diagnostics };
}

/** The first readable candidate in `folder`. */
async function contextFileIn(
  files: FileCache,
  folder: string,
  diagnostics: ResourceDiagnostic[],
): Promise<ContextFile | undefined> {
  for (const name of CANDIDATES) {
    const path = join(folder, name);
    try {
      const content = await files.text(path);
      if (content !== undefined) return { path, content };
    } catch (error) {
      diagnostics.push({ resource: "context", path, message: `skipped: cannot be read (${(error as Error).message})` });
    }
  }
  return undefined;
}
