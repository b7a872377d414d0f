/**
 * The `write` tool: pi's parameters (path, content). Creates or overwrites a file, creating missing
 * parent folders, under the file's write lock so it never interleaves with an edit of the same file.
 * Its words (schema, description, messages) are kit's, shared with the remote write tool.
 */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import {
  lockKeyFor,
  resolveToCwd,
  throwIfToolAborted,
  WRITE_DESCRIPTION,
  WRITE_GUIDELINES,
  WriteParameters,
  writeNotRegular,
  writeRefusal,
  writeSuccessText,
  type AgentTool,
  type ToolContext,
  type ToolResult,
  type WriteParams,
} from "pi-host";
import { NotRegularFileError, writeRegularFile } from "./regular-file.js";

export { WriteParameters, type WriteParams } from "pi-host";

/** Builds the write tool; it holds no state, so one instance serves every session. */
export function createWriteTool(): AgentTool<typeof WriteParameters, undefined> {
  return {
    name: "write",
    label: "write",
    description: WRITE_DESCRIPTION,
    guidelines: WRITE_GUIDELINES,
    parameters: WriteParameters,
    execute: (_toolCallId, params, signal, _onUpdate, ctx) => writePath(params, signal, ctx),
  };
}

async function writePath(
  { path, content }: WriteParams,
  signal: AbortSignal | undefined,
  ctx: ToolContext,
): Promise<ToolResult<undefined>> {
  throwIfToolAborted(signal);
  const absolutePath = resolveToCwd(path, ctx.cwd);
  return ctx.withFileLock(lockKeyFor(absolutePath), async () => {
    throwIfToolAborted(signal);
    try {
      await mkdir(dirname(absolutePath), { recursive: true });
      await writeRegularFile(absolutePath, content, (kind) => writeNotRegular(path, kind));
    } catch (error) {
      if (error instanceof NotRegularFileError) throw error;
      throw new Error(describeWriteError(error, path));
    }
    return { content: [{ type: "text", text: writeSuccessText(content, path) }], details: undefined };
  });
}

/** One line for a failed mkdir/write, naming the path the model sent. */
function describeWriteError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EISDIR") return writeRefusal(path, "directory");
  if (code === "ENOTDIR" || code === "EEXIST") return writeRefusal(path, "parent-is-file");
  if (code === "EACCES" || code === "EPERM") return writeRefusal(path, "permission");
  return `Cannot write ${path}: ${error instanceof Error ? error.message : String(error)}`;
}
