/**
 * What pi's `write` tool says, whatever file system it writes: its parameters, description and
 * one-line messages, shared by the local and the remote write tools.
 */
import { Type, type Static } from "@sinclair/typebox";

/** pi's write parameters, names and meanings unchanged. */
export const WriteParameters = Type.Object({
  path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
  content: Type.String({ description: "Content to write to the file" }),
});

/** The arguments of one write call. */
export type WriteParams = Static<typeof WriteParameters>;

/** pi's write description, shown to the model. */
export const WRITE_DESCRIPTION =
  "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.";

/** pi's write guideline for the system prompt. */
export const WRITE_GUIDELINES = ["Use write only for new files or complete rewrites."];

/** Why a write failed, as the write tools word it. */
export type WriteRefusal = "directory" | "parent-is-file" | "permission";

/** The one line for a failed write, naming the path the model sent. */
export function writeRefusal(path: string, why: WriteRefusal): string {
  if (why === "directory") return `Cannot write ${path}: it is a directory.`;
  if (why === "parent-is-file") return `Cannot write ${path}: a parent in that path is a file, not a folder.`;
  return `Cannot write ${path}: permission denied.`;
}

/** The one line for a path that is a FIFO, socket or device. */
export function writeNotRegular(path: string, kind: string): string {
  return `Cannot write ${path}: it is ${kind}, not a regular file; write only creates or replaces regular files.`;
}

/** pi's line after a successful write. */
export function writeSuccessText(content: string, path: string): string {
  return `Successfully wrote ${Buffer.byteLength(content, "utf-8")} bytes to ${path}`;
}
