/**
 * The files that replace or extend the system prompt: SYSTEM.md replaces the default preamble (the
 * project's `.pi/SYSTEM.md` wins over the global `<agentDir>/SYSTEM.md`), APPEND_SYSTEM.md adds to it
 * (the project's, then the global one). As in pi, a --system-prompt or --append-system-prompt value that
 * names an existing file stands for that file's text.
 */
import { join, resolve } from "node:path";
import type { ResourceDiagnostic } from "./diagnostics.js";
import type { FileCache } from "./file-cache.js";

/** A piece of prompt text and where it came from. */
export interface PromptText {
  source: string;
  text: string;
}

/** SYSTEM.md for `cwd`, if any: project first (when `includeProject`, i.e. the project is trusted), then global. */
export async function systemPromptFile(
  files: FileCache,
  cwd: string,
  agentDir: string,
  diagnostics: ResourceDiagnostic[],
  includeProject = true,
): Promise<PromptText | undefined> {
  const paths = [...(includeProject ? [join(cwd, ".pi", "SYSTEM.md")] : []), join(agentDir, "SYSTEM.md")];
  for (const path of paths) {
    const text = await readPromptFile(files, path, diagnostics);
    if (text !== undefined) return { source: `SYSTEM.md: ${path}`, text };
  }
  return undefined;
}

/** Every APPEND_SYSTEM.md for `cwd`: project (when `includeProject`, i.e. the project is trusted), then global. */
export async function appendPromptFiles(
  files: FileCache,
  cwd: string,
  agentDir: string,
  diagnostics: ResourceDiagnostic[],
  includeProject = true,
): Promise<PromptText[]> {
  const out: PromptText[] = [];
  const paths = [...(includeProject ? [join(cwd, ".pi", "APPEND_SYSTEM.md")] : []), join(agentDir, "APPEND_SYSTEM.md")];
  for (const path of new Set(paths)) {
    const text = await readPromptFile(files, path, diagnostics);
    if (text !== undefined) out.push({ source: `APPEND_SYSTEM.md: ${path}`, text });
  }
  return out;
}

/**
 * A flag's value: the text of the file it names (relative to cwd), or the value itself. Only a short
 * single line can be a path, so prompt text is never mistaken for one.
 */
export async function flagText(
  files: FileCache,
  value: string,
  cwd: string,
  flag: string,
  diagnostics: ResourceDiagnostic[],
): Promise<PromptText> {
  if (value.includes("\n") || value.includes("\0") || value.length > 4096 || value.trim() === "")
    return { source: flag, text: value };
  const path = resolve(cwd, value.trim());
  const text = await readPromptFile(files, path, diagnostics);
  return text === undefined ? { source: flag, text: value } : { source: `${flag}: ${path}`, text };
}

async function readPromptFile(
  files: FileCache,
  path: string,
  diagnostics: ResourceDiagnostic[],
): Promise<string | undefined> {
  try {
    return await files.text(path);
  } catch (error) {
    diagnostics.push({
      resource: "system-prompt",
      path,
      message: `skipped: cannot be read (${(error as Error).message})`,
    });
    return undefined;
  }
}
