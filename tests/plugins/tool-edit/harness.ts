/** Helpers for the edit tool tests: temp files, a tool context, and the tool itself. */
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileLocks, type ToolContext, type ToolResult } from "../../../contracts/tool.js";
import type { EditParams } from "../../../kit/tools/edit/edit-arguments.js";
import { createEditTool, type EditToolDetails } from "../../../plugins/tools/tool-edit/edit-tool.js";

/** A new empty folder under the OS temp folder (its real path, so lock keys compare equal). */
export function tempFolder(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-edit-")));
}

/** Writes a file (text as UTF-8, or raw bytes) and returns its absolute path. */
export function put(folder: string, name: string, content: string | Buffer): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

/** A file's bytes as a latin1-free UTF-8 string (BOM and CRs included). */
export function contentOf(folder: string, name: string): string {
  return readFileSync(join(folder, name), "utf-8");
}

/** Runs the edit tool in `cwd`; params may be in any shape a model sends. */
export function edit(
  cwd: string,
  params: EditParams | Record<string, unknown>,
  withFileLock: ToolContext["withFileLock"] = createFileLocks(),
  signal?: AbortSignal,
): Promise<ToolResult<EditToolDetails>> {
  return createEditTool().execute("call-1", params as EditParams, signal, undefined, { cwd, withFileLock });
}
