/**
 * The `read` tool: pi's parameters (path, offset, limit) and output. Text comes back cut to 2,000 lines
 * or 50 KB with a note naming the exact offset to continue from; png/jpeg/gif/webp files come back as
 * image content; other binary files, folders and missing files are refused with a one-line reason.
 */
import { readFile, stat } from "node:fs/promises";
import {
  checkReadLineArguments,
  READ_DESCRIPTION,
  READ_GUIDELINES,
  readBinaryError,
  readDirectoryError,
  readFailure,
  readImageResult,
  readNotRegularError,
  readTextResult,
  ReadParameters,
  throwIfToolAborted,
  type AgentTool,
  type ReadParams,
  type ReadToolDetails,
  type ToolContext,
  type ToolResult,
} from "pi-host";
import { detectFileKind } from "./file-kind.js";
import { resolveReadPath } from "./resolve-path.js";

export { ReadParameters, type ReadParams, type ReadToolDetails } from "pi-host";

/** Builds the read tool; it holds no state, so one instance serves every session. */
export function createReadTool(): AgentTool<typeof ReadParameters, ReadToolDetails | undefined> {
  return {
    name: "read",
    label: "read",
    description: READ_DESCRIPTION,
    guidelines: READ_GUIDELINES,
    parameters: ReadParameters,
    execute: (_toolCallId, params, signal, _onUpdate, ctx) => readPath(params, signal, ctx),
  };
}

async function readPath(
  params: ReadParams,
  signal: AbortSignal | undefined,
  ctx: ToolContext,
): Promise<ToolResult<ReadToolDetails | undefined>> {
  throwIfToolAborted(signal);
  checkReadLineArguments(params);
  const absolutePath = resolveReadPath(params.path, ctx.cwd);
  const stats = await stat(absolutePath).catch((error: unknown) => {
    throw describeFsError(error, params.path);
  });
  if (stats.isDirectory()) throw readDirectoryError(params.path);
  if (!stats.isFile()) throw readNotRegularError(params.path);

  const kind = await detectFileKind(absolutePath);
  if (kind.kind === "binary") throw readBinaryError(params.path);
  const bytes = await readFile(absolutePath);
  throwIfToolAborted(signal);
  if (kind.kind === "image") return readImageResult(bytes, kind.mimeType);
  return readTextResult(bytes.toString("utf-8"), params);
}

/** One line for a failed stat/read, naming the path the model sent. */
function describeFsError(error: unknown, path: string): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return readFailure(path, "not-found");
  if (code === "EACCES" || code === "EPERM") return readFailure(path, "permission");
  return new Error(`Could not read ${path}: ${error instanceof Error ? error.message : String(error)}`);
}
