/**
 * The `write` tool: pi's parameters (path, content). Creates or overwrites a file, creating missing
 * parent folders, under the file's write lock so it never interleaves with an edit of the same file.
 */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import type { AgentTool, ToolContext, ToolResult } from "pi-host";
import { NotRegularFileError, writeRegularFile } from "./regular-file.js";
import { lockKeyFor, resolveToCwd } from "pi-host";

/** pi's write parameters, names and meanings unchanged. */
export const WriteParameters = Type.Object({
  path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
  content: Type.String({ description: "Content to write to the file" }),
});

/** The arguments of one write call. */
export type WriteParams = Static<typeof WriteParameters>;

/** Builds the write tool; it holds no state, so one instance serves every session. */
export function createWriteTool(): AgentTool<typeof WriteParameters, undefined> {
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    guidelines: ["Use write only for new files or complete rewrites."],
    parameters: WriteParameters,
    execute: (_toolCallId, params, signal, _onUpdate, ctx) => writePath(params, signal, ctx),
  };
}

async function writePath(
  { path, content }: WriteParams,
  signal: AbortSignal | undefined,
  ctx: ToolContext,
): Promise<ToolResult<undefined>> {
  throwIfAborted(signal);
  const absolutePath = resolveToCwd(path, ctx.cwd);
  return ctx.withFileLock(lockKeyFor(absolutePath), async () => {
    throwIfAborted(signal);
    try {
      await mkdir(dirname(absolutePath), { recursive: true });
      await writeRegularFile(
        absolutePath,
        content,
        (kind) =>
          `Cannot write ${path}: it is ${kind}, not a regular file; write only creates or replaces regular files.`,
      );
    } catch (error) {
      if (error instanceof NotRegularFileError) throw error;
      throw new Error(describeWriteError(error, path));
    }
    const bytes = Buffer.byteLength(content, "utf-8");
    return { content: [{ type: "text", text: `Successfully wrote ${bytes} bytes to ${path}` }], details: undefined };
  });
}

/** One line for a failed mkdir/write, naming the path the model sent. */
function describeWriteError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EISDIR") return `Cannot write ${path}: it is a directory.`;
  if (code === "ENOTDIR" || code === "EEXIST")
    return `Cannot write ${path}: a parent in that path is a file, not a folder.`;
  if (code === "EACCES" || code === "EPERM") return `Cannot write ${path}: permission denied.`;
  return `Cannot write ${path}: ${error instanceof Error ? error.message : String(error)}`;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
