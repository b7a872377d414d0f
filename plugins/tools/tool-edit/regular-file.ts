/**
 * Editing only regular files. Opening a FIFO blocks until the other end appears and a device can produce
 * bytes forever, so an `edit` of such a path would hang the turn. Files are opened with O_NONBLOCK (a
 * FIFO then opens, or fails, at once) and checked with fstat on the open handle, so a path swapped for a
 * FIFO between calls is still refused rather than blocked on.
 */
import { constants, type Stats } from "node:fs";
import { open } from "node:fs/promises";

/** Thrown for a path that exists but is not a regular file; its message is the one line the model sees. */
export class NotRegularFileError extends Error {}

/** "a FIFO (named pipe)", "a socket", ...: what a non-regular file is, for error messages. */
export function describeNonRegularFile(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isDirectory()) return "a directory";
  return "not a regular file";
}

/** The bytes of the regular file at `absolutePath`; NotRegularFileError (message `describe(kind)`) otherwise. */
export async function readRegularFile(absolutePath: string, describe: (kind: string) => string): Promise<Buffer> {
  const handle = await openWithoutBlocking(absolutePath, constants.O_RDONLY, describe);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(describe(describeNonRegularFile(stats)));
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Replaces the content of the regular file at `absolutePath`; NotRegularFileError when it no longer is one. */
export async function rewriteRegularFile(
  absolutePath: string,
  content: string,
  describe: (kind: string) => string,
): Promise<void> {
  const handle = await openWithoutBlocking(absolutePath, constants.O_WRONLY, describe);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(describe(describeNonRegularFile(stats)));
    await handle.truncate(0);
    await handle.writeFile(content, "utf-8");
  } finally {
    await handle.close();
  }
}

async function openWithoutBlocking(absolutePath: string, flags: number, describe: (kind: string) => string) {
  try {
    return await open(absolutePath, flags | constants.O_NONBLOCK);
  } catch (error) {
    // ENXIO: a FIFO with no reader (opened for writing) or a socket.
    if ((error as NodeJS.ErrnoException).code === "ENXIO") throw new NotRegularFileError(describe("a FIFO or socket"));
    throw error;
  }
}
