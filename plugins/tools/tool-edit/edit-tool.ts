/**
 * The `edit` tool: pi's targeted text replacement. Under the file's write lock it reads the file,
 * applies every replacement with kit's `editFileText` (BOM and line-ending style kept), writes the
 * file back, and returns a short summary plus pi's numbered diff in details.
 */
import { stat } from "node:fs/promises";
import {
  EDIT_DESCRIPTION,
  EDIT_GUIDELINES,
  EditParameters,
  editFileText,
  editNotRegular,
  editRefusal,
  editSuccessText,
  lockKeyFor,
  prepareEditArguments,
  readEditArguments,
  resolveToCwd,
  throwIfToolAborted,
  type AgentTool,
  type EditParams,
  type EditToolDetails,
  type ToolContext,
  type ToolResult,
} from "pi-host";
import { readRegularFile, rewriteRegularFile } from "./regular-file.js";

export type { EditToolDetails } from "pi-host";

/** Builds the edit tool; it holds no state, so one instance serves every session. */
export function createEditTool(): AgentTool<typeof EditParameters, EditToolDetails> {
  return {
    name: "edit",
    label: "edit",
    description: EDIT_DESCRIPTION,
    guidelines: EDIT_GUIDELINES,
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
  throwIfToolAborted(signal);
  const { path, edits } = readEditArguments(params);
  const absolutePath = resolveToCwd(path, ctx.cwd);
  return ctx.withFileLock(lockKeyFor(absolutePath), async () => {
    throwIfToolAborted(signal);
    const edited = editFileText(await readEditable(absolutePath, path), edits, path);
    throwIfToolAborted(signal);
    await rewriteRegularFile(absolutePath, edited.content, (kind) => editNotRegular(path, kind));
    return { content: [{ type: "text", text: editSuccessText(edits.length, path) }], details: edited.details };
  });
}

/** The file's bytes, or a one-line reason it cannot be edited (missing, a folder, a FIFO or device). */
async function readEditable(absolutePath: string, path: string): Promise<Buffer> {
  try {
    const stats = await stat(absolutePath);
    if (stats.isDirectory()) throw editRefusal(path, "directory");
    return await readRegularFile(absolutePath, (kind) => editNotRegular(path, kind));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw editRefusal(path, "not-found");
    if (code === "EACCES" || code === "EPERM") throw editRefusal(path, "permission");
    throw error;
  }
}
