/**
 * The `read` tool: pi's parameters (path, offset, limit) and output. Text comes back cut to 2,000 lines
 * or 50 KB with a note naming the exact offset to continue from; png/jpeg/gif/webp files come back as
 * image content; other binary files, folders and missing files are refused with a one-line reason.
 */
import { readFile, stat } from "node:fs/promises";
import { Type, type Static } from "@sinclair/typebox";
import type { ImageContent, TextContent } from "pi-host";
import { TOOL_LIMITS, type AgentTool, type ToolContext, type ToolResult } from "pi-host";
import { detectFileKind, type ImageMimeType } from "./file-kind.js";
import { resolveReadPath } from "./resolve-path.js";
import { formatSize, truncateHead, type TruncationResult } from "pi-host";

/** pi's read parameters, names and meanings unchanged. */
export const ReadParameters = Type.Object({
  path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
  offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
});

/** The arguments of one read call. */
export type ReadParams = Static<typeof ReadParameters>;

/** pi's read details: present only when the output was truncated. */
export interface ReadToolDetails {
  truncation?: TruncationResult;
}

/** Base64 size above which an image is not inlined (pi's headroom below Anthropic's 5 MB limit). */
export const MAX_INLINE_IMAGE_BASE64_BYTES = 4.5 * 1024 * 1024;

const DESCRIPTION =
  `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. ` +
  `For text files, output is truncated to ${TOOL_LIMITS.maxLines} lines or ${TOOL_LIMITS.maxBytes / 1024}KB (whichever is hit first). ` +
  `Use offset/limit for large files. When you need the full file, continue with offset until complete.`;

/** Builds the read tool; it holds no state, so one instance serves every session. */
export function createReadTool(): AgentTool<typeof ReadParameters, ReadToolDetails | undefined> {
  return {
    name: "read",
    label: "read",
    description: DESCRIPTION,
    guidelines: ["Use read to examine files instead of cat or sed."],
    parameters: ReadParameters,
    execute: (_toolCallId, params, signal, _onUpdate, ctx) => readPath(params, signal, ctx),
  };
}

async function readPath(
  params: ReadParams,
  signal: AbortSignal | undefined,
  ctx: ToolContext,
): Promise<ToolResult<ReadToolDetails | undefined>> {
  throwIfAborted(signal);
  checkLineArguments(params);
  const absolutePath = resolveReadPath(params.path, ctx.cwd);
  const stats = await stat(absolutePath).catch((error: unknown) => {
    throw new Error(describeFsError(error, params.path));
  });
  if (stats.isDirectory()) throw new Error(`${params.path} is a directory, not a file. Use ls to list its contents.`);
  if (!stats.isFile())
    throw new Error(`Cannot read ${params.path}: it is not a regular file (a device, pipe or socket).`);

  const kind = await detectFileKind(absolutePath);
  if (kind.kind === "binary") {
    throw new Error(
      `Cannot read ${params.path}: it is a binary file. read returns text files and images (png, jpeg, gif, webp).`,
    );
  }
  const bytes = await readFile(absolutePath);
  throwIfAborted(signal);
  if (kind.kind === "image") return imageResult(bytes, kind.mimeType);
  return textResult(bytes.toString("utf-8"), params);
}

/** Rejects offsets and limits that name no lines, before touching the file. */
function checkLineArguments({ offset, limit }: ReadParams): void {
  if (offset !== undefined && (!Number.isInteger(offset) || offset < 0)) {
    throw new Error(`offset must be a line number (1 or more), got ${offset}`);
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new Error(`limit must be a whole number of lines (1 or more), got ${limit}`);
  }
}

/** An image as pi returns it: a short text note, then the image itself. */
function imageResult(bytes: Buffer, mimeType: ImageMimeType): ToolResult<undefined> {
  const data = bytes.toString("base64");
  const note = `Read image file [${mimeType}]`;
  if (data.length > MAX_INLINE_IMAGE_BASE64_BYTES) {
    const text = `${note}\n[Image omitted: ${formatSize(data.length)} encoded is above the ${formatSize(MAX_INLINE_IMAGE_BASE64_BYTES)} inline image size limit.]`;
    return { content: [{ type: "text", text }], details: undefined };
  }
  const content: Array<TextContent | ImageContent> = [
    { type: "text", text: note },
    { type: "image", data, mimeType },
  ];
  return { content, details: undefined };
}

/**
 * The requested lines of a text file with pi's notes: where to continue after truncation or after a
 * user limit, and a bash fallback when the first line alone is over the byte limit.
 */
export function textResult(text: string, { path, offset, limit }: ReadParams): ToolResult<ReadToolDetails | undefined> {
  const allLines = text.split("\n");
  const startIndex = offset ? offset - 1 : 0;
  const startLine = startIndex + 1;
  if (startIndex >= allLines.length) {
    throw new Error(`Offset ${offset} is beyond end of file (${allLines.length} lines total)`);
  }
  const endIndex = limit === undefined ? allLines.length : Math.min(startIndex + limit, allLines.length);
  const truncation = truncateHead(allLines.slice(startIndex, endIndex).join("\n"));
  const maxSize = formatSize(TOOL_LIMITS.maxBytes);

  if (truncation.firstLineExceedsLimit) {
    const lineSize = formatSize(Buffer.byteLength(allLines[startIndex], "utf-8"));
    const hint = `[Line ${startLine} is ${lineSize}, exceeds ${maxSize} limit. Use bash: sed -n '${startLine}p' ${path} | head -c ${TOOL_LIMITS.maxBytes}]`;
    return { content: [{ type: "text", text: hint }], details: { truncation } };
  }
  if (truncation.truncated) {
    const lastLine = startLine + truncation.outputLines - 1;
    const range = `Showing lines ${startLine}-${lastLine} of ${allLines.length}`;
    const reason = truncation.truncatedBy === "bytes" ? ` (${maxSize} limit)` : "";
    const text = `${truncation.content}\n\n[${range}${reason}. Use offset=${lastLine + 1} to continue.]`;
    return { content: [{ type: "text", text }], details: { truncation } };
  }
  if (endIndex < allLines.length) {
    const text = `${truncation.content}\n\n[${allLines.length - endIndex} more lines in file. Use offset=${endIndex + 1} to continue.]`;
    return { content: [{ type: "text", text }], details: undefined };
  }
  return { content: [{ type: "text", text: truncation.content }], details: undefined };
}

/** One line for a failed stat/read, naming the path the model sent. */
function describeFsError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return `File not found: ${path}`;
  if (code === "EACCES" || code === "EPERM") return `Permission denied: ${path}`;
  return `Could not read ${path}: ${error instanceof Error ? error.message : String(error)}`;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
