/**
 * Writing only to regular files. Opening a FIFO for writing blocks until a reader appears and a device
 * can swallow or produce bytes forever, so a model's `write` to such a path would hang the turn. The
 * file is opened with O_NONBLOCK (a FIFO without a reader then fails at once instead of blocking) and
 * checked with fstat on the open handle, so a path swapped for a FIFO after a check is still refused.
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

/**
 * Creates or replaces the regular file at `absolutePath` with `content`; refuses (NotRegularFileError,
 * `describe(kind)` as message) when the path is a FIFO, socket or device, without blocking on it.
 */
export async function writeRegularFile(
  absolutePath: string,
  content: string,
  describe: (kind: string) => string,
): Promise<void> {
  let handle;
  try {
    handle = await open(absolutePath, constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
  } catch (error) {
    // ENXIO: a FIFO with no reader, or a socket; neither can be written as a file.
    if ((error as NodeJS.ErrnoException).code === "ENXIO") throw new NotRegularFileError(describe("a FIFO or socket"));
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(describe(describeNonRegularFile(stats)));
    await handle.truncate(0);
    await handle.writeFile(content, "utf-8");
  } finally {
    await handle.close();
  }
}
