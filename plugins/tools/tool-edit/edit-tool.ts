/**
 * The `edit` tool: pi's targeted text replacement. Under the file's write lock it reads the file,
 * sets its BOM and line-ending style aside, applies every replacement to the plain LF text, writes
 * the file back in its own style, and returns a short summary plus pi's numbered diff in details.
 */
import { stat } from "node:fs/promises";
import type { AgentTool, ToolContext, ToolResult } from "pi-host";
import { applyEdits } from "./apply-edits.js";
import { EditParameters, prepareEditArguments, readEditArguments, type EditParams } from "./edit-arguments.js";
import { detectLineEnding, normalizeToLF, restoreLineEndings, stripBom } from "./line-endings.js";
import { renderLineDiff } from "./line-diff.js";
import { readRegularFile, rewriteRegularFile } from "./regular-file.js";
import { lockKeyFor, resolveToCwd } from "pi-host";

/** pi's edit details: the numbered diff and where the first change is in the new file. */
export interface EditToolDetails {
  diff: string;
  firstChangedLine?: number;
}

/** Builds the edit tool; it holds no state, so one instance serves every session. */
export function createEditTool(): AgentTool<typeof EditParameters, EditToolDetails> {
  return {
    name: "edit",
    label: "edit",
    description:
      "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. " +
      "If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. " +
      "Do not include large unchanged regions just to connect distant changes.",
    guidelines: [
      "Use edit for precise changes (edits[].oldText must match exactly)",
      "When changing multiple separate locations in one file, use one edit call with multiple entries in edits[] instead of multiple edit calls",
      "Each edits[].oldText is matched against the original file, not after earlier edits are applied. Do not emit overlapping or nested edits. Merge nearby changes into one edit.",
      "Keep edits[].oldText as small as possible while still being unique in the file. Do not pad with large unchanged regions.",
    ],
    parameters: EditParameters,
    prepareArguments: prepareEditArguments,
    execute: (_toolCallId, params, signal, _onUpdate, ctx) => editFile(params, signal, ctx),
  };
}

async function editFile(
  params: EditParams,
  signal: AbortSignal | undefined,
  ctx: ToolContext,
): Promise<ToolResult<EditToolDetails>> {
  throwIfAborted(signal);
  const { path, edits } = readEditArguments(params);
  const absolutePath = resolveToCwd(path, ctx.cwd);
  return ctx.withFileLock(lockKeyFor(absolutePath), async () => {
    throwIfAborted(signal);
    const bytes = await readEditable(absolutePath, path);
    const { bom, text } = stripBom(bytes.toString("utf-8"));
    const lineEnding = detectLineEnding(text);
    const original = normalizeToLF(text);
    const newContent = applyEdits(original, edits, path);
    throwIfAborted(signal);
    await rewriteRegularFile(absolutePath, bom + restoreLineEndings(newContent, lineEnding), (kind) =>
      notRegular(path, kind),
    );
    const { diff, firstChangedLine } = renderLineDiff(original, newContent);
    return {
      content: [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${path}.` }],
      details: { diff, firstChangedLine },
    };
  });
}

/** The one line for a path that is a FIFO, socket or device: edit changes regular files only. */
function notRegular(path: string, kind: string): string {
  return `Could not edit file: ${path}. It is ${kind}, not a regular file.`;
}

/** The file's bytes, or a one-line reason it cannot be edited (missing, a folder, a FIFO or device, binary). */
async function readEditable(absolutePath: string, path: string): Promise<Buffer> {
  try {
    const stats = await stat(absolutePath);
    if (stats.isDirectory()) throw new Error(`Could not edit file: ${path}. It is a directory.`);
    const bytes = await readRegularFile(absolutePath, (kind) => notRegular(path, kind));
    if (bytes.includes(0)) throw new Error(`Could not edit file: ${path}. It is a binary file.`);
    return bytes;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new Error(`Could not edit file: ${path}. File not found.`);
    if (code === "EACCES" || code === "EPERM") throw new Error(`Could not edit file: ${path}. Permission denied.`);
    throw error;
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
