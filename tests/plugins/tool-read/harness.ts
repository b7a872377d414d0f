/** Helpers for the read tool tests: a fresh temp folder, a tool context on it, and the tool itself. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileLocks, type ToolContext, type ToolResult } from "../../../contracts/tool.js";
import { createReadTool, type ReadParams, type ReadToolDetails } from "../../../plugins/tools/tool-read/read-tool.js";

/** A new empty folder under the OS temp folder. */
export function tempFolder(): string {
  return mkdtempSync(join(tmpdir(), "pi-tool-read-"));
}

/** A tool context rooted at `cwd`. */
export function contextAt(cwd: string): ToolContext {
  return { cwd, withFileLock: createFileLocks() };
}

/** Writes `content` to `name` inside `folder` and returns its absolute path. */
export function put(folder: string, name: string, content: string | Buffer): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

/** Runs the read tool in `cwd`. */
export function read(
  cwd: string,
  params: ReadParams,
  signal?: AbortSignal,
): Promise<ToolResult<ReadToolDetails | undefined>> {
  return createReadTool().execute("call-1", params, signal, undefined, contextAt(cwd));
}

/** The text of a result's only text block. */
export function textOf(result: ToolResult<unknown>): string {
  const texts = result.content.filter((block) => block.type === "text");
  if (texts.length !== 1) throw new Error(`expected one text block, got ${texts.length}`);
  return (texts[0] as { text: string }).text;
}

/** `count` lines "line 1" … "line count" joined by "\n", with a trailing newline when asked. */
export function numberedLines(count: number, trailingNewline = false): string {
  const lines = Array.from({ length: count }, (_, i) => `line ${i + 1}`);
  return lines.join("\n") + (trailingNewline ? "\n" : "");
}
