/**
 * Reading a file's lines for the Node grep without ever hanging or loading an unbounded amount: only
 * regular files are read (a FIFO would block forever, /dev/zero never ends), the file is opened with
 * O_NONBLOCK and checked with fstat on the open handle, at most the size it had when opened is read,
 * in chunks, and the caller stops the reading once it has what it needs.
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

/** How much is read at a time. */
const CHUNK_BYTES = 64 * 1024;

/** What a read saw. */
export interface LinesRead {
  /** False when the path is not a readable regular file (nothing was visited). */
  readable: boolean;
  /** A NUL byte was seen (the file is binary, as rg decides it). */
  sawNul: boolean;
}

/** How to read. */
export interface ReadLinesOptions {
  /** After `visit` asked to stop, read on only to look for a NUL byte (to tell whether the file is binary). */
  keepScanningForNul?: boolean;
  signal?: AbortSignal;
}

/**
 * Calls `visit(line, lineNumber)` for each line (without "\n"; a final empty line after the last "\n" is
 * not a line) until it returns false. Non-regular or unreadable files are reported as not readable.
 */
export async function readFileLines(
  path: string,
  visit: (line: string, lineNumber: number) => boolean,
  options: ReadLinesOptions = {},
): Promise<LinesRead> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return { readable: false, sawNul: false };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { readable: false, sawNul: false };
    const decoder = new StringDecoder("utf8");
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let remaining = stats.size;
    let position = 0;
    let pending = "";
    let lineNumber = 0;
    let visiting = true;
    let sawNul = false;
    while (remaining > 0) {
      if (options.signal?.aborted) throw new Error("Operation aborted");
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, remaining), position);
      if (bytesRead === 0) break; // the file shrank
      remaining -= bytesRead;
      position += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      if (!sawNul && chunk.includes(0)) sawNul = true;
      if (!visiting) {
        if (sawNul) break;
        continue;
      }
      pending += decoder.write(chunk);
      let start = 0;
      for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n", start)) {
        lineNumber++;
        const line = pending.slice(start, end);
        start = end + 1;
        if (!visit(line, lineNumber)) {
          visiting = false;
          break;
        }
      }
      pending = visiting ? pending.slice(start) : "";
      if (!visiting && (!options.keepScanningForNul || sawNul)) break;
    }
    if (visiting) {
      pending += decoder.end();
      if (pending !== "") visit(pending, lineNumber + 1);
    }
    return { readable: true, sawNul };
  } catch (error) {
    if ((error as Error).message === "Operation aborted") throw error;
    return { readable: false, sawNul: false };
  } finally {
    await handle.close();
  }
}

/** A file's lines as the searches number them, up to line `lastNeeded`; undefined when it cannot be read. */
export async function readLinesUpTo(path: string, lastNeeded: number): Promise<string[] | undefined> {
  const lines: string[] = [];
  const read = await readFileLines(path, (line) => {
    lines.push(line.replace(/\r/g, ""));
    return lines.length < lastNeeded;
  });
  return read.readable ? lines : undefined;
}
