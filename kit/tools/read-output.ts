/**
 * What pi's `read` tool says, whatever file system it reads: its parameters, its description, the
 * checks on offset/limit, how the first bytes tell images, text and binary apart, and the text or image
 * result with pi's truncation and continuation notes. The local and the remote read tools share it, so
 * both answer the model in the same words.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { ImageContent, TextContent } from "../../contracts/ai/index.js";
import { TOOL_LIMITS, type ToolResult } from "../../contracts/tool.js";
import type { TruncationResult } from "../../contracts/tool-output.js";
import { formatSize, truncateHead } from "../text/truncate.js";

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

/** pi's read description, shown to the model. */
export const READ_DESCRIPTION =
  `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. ` +
  `For text files, output is truncated to ${TOOL_LIMITS.maxLines} lines or ${TOOL_LIMITS.maxBytes / 1024}KB (whichever is hit first). ` +
  `Use offset/limit for large files. When you need the full file, continue with offset until complete.`;

/** pi's read guideline for the system prompt. */
export const READ_GUIDELINES = ["Use read to examine files instead of cat or sed."];

/** What the read tool does with a file. */
export type FileKind = { kind: "image"; mimeType: ImageMimeType } | { kind: "text" } | { kind: "binary" };

/** The image types every vision model accepts. */
export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** How much of a file is inspected; git looks at the same 8,000 bytes to call a file binary. */
export const SNIFF_BYTES = 8_000;

/** Classifies a file from its leading bytes (by content, never by name). */
export function classifyHead(head: Buffer): FileKind {
  const mimeType = imageMimeType(head);
  if (mimeType !== undefined) return { kind: "image", mimeType };
  return head.includes(0) ? { kind: "binary" } : { kind: "text" };
}

function imageMimeType(head: Buffer): ImageMimeType | undefined {
  const startsWith = (bytes: number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith([0xff, 0xd8, 0xff])) return "image/jpeg";
  const ascii = head.toString("latin1", 0, 12);
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "image/gif";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

/** Rejects offsets and limits that name no lines, before touching the file. */
export function checkReadLineArguments({ offset, limit }: ReadParams): void {
  if (offset !== undefined && (!Number.isInteger(offset) || offset < 0)) {
    throw new Error(`offset must be a line number (1 or more), got ${offset}`);
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new Error(`limit must be a whole number of lines (1 or more), got ${limit}`);
  }
}

/** The one line for a file read cannot open: missing (or under a file), or not readable. */
export function readFailure(path: string, why: "not-found" | "permission"): Error {
  return new Error(why === "not-found" ? `File not found: ${path}` : `Permission denied: ${path}`);
}

/** pi's one line for a folder given to read. */
export function readDirectoryError(path: string): Error {
  return new Error(`${path} is a directory, not a file. Use ls to list its contents.`);
}

/** pi-host's one line for a device, pipe or socket given to read. */
export function readNotRegularError(path: string): Error {
  return new Error(`Cannot read ${path}: it is not a regular file (a device, pipe or socket).`);
}

/** pi-host's one line for a binary file given to read. */
export function readBinaryError(path: string): Error {
  return new Error(
    `Cannot read ${path}: it is a binary file. read returns text files and images (png, jpeg, gif, webp).`,
  );
}

/** The whole result for a file's bytes: refused when binary, an image, or the requested lines of text. */
export function readBytesResult(bytes: Buffer, params: ReadParams): ToolResult<ReadToolDetails | undefined> {
  const kind = classifyHead(bytes.subarray(0, SNIFF_BYTES));
  if (kind.kind === "binary") throw readBinaryError(params.path);
  if (kind.kind === "image") return readImageResult(bytes, kind.mimeType);
  return readTextResult(bytes.toString("utf-8"), params);
}

/** An image as pi returns it: a short text note, then the image itself. */
export function readImageResult(bytes: Buffer, mimeType: ImageMimeType): ToolResult<undefined> {
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
export function readTextResult(
  text: string,
  { path, offset, limit }: ReadParams,
): ToolResult<ReadToolDetails | undefined> {
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

/** Throws pi's abort error when the call was aborted. */
export function throwIfToolAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error("Operation aborted");
}
