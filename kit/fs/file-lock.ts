/**
 * A lock shared by processes, held as a folder next to the file it guards (`<file>.lock`): `mkdir` is
 * atomic on every local file system, so of two processes that try at once exactly one wins. The holder
 * touches the folder while it works; a folder nobody touched for `staleMs` belongs to a crashed process
 * and is taken over. Used so that two `pi` processes never both refresh one OAuth token.
 */
import { mkdir, rm, stat, utimes } from "node:fs/promises";
import { dirname } from "node:path";

/** How long to wait for the lock and when a held lock counts as abandoned. */
export interface FileLockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock untouched this long is taken over (default 10 s). */
  staleMs?: number;
  /** Pause between attempts (default 25 ms). */
  retryMs?: number;
}

/** Runs `task` while holding the lock of `file`; the lock is released however `task` ends. */
export async function withFileLock<T>(file: string, task: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const lock = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 10_000;
  const retryMs = options.retryMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (await isStale(lock, staleMs)) {
        await rm(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`${file} is locked by another pi process (${lock}); remove that folder if no pi is running`);
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
  // Keep the lock fresh while the task runs, so a slow refresh is not taken for a crashed one.
  const keepAlive = setInterval(
    () => {
      const now = new Date();
      utimes(lock, now, now).catch(() => undefined);
    },
    Math.max(50, Math.floor(staleMs / 3)),
  );
  keepAlive.unref();
  try {
    return await task();
  } finally {
    clearInterval(keepAlive);
    await rm(lock, { recursive: true, force: true });
  }
}

async function isStale(lock: string, staleMs: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(lock)).mtimeMs > staleMs;
  } catch (error) {
    // Released between our mkdir and this stat: not stale, just try again.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
