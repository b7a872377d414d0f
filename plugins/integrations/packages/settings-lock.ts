/**
 * pi's settings-file lock, taken by the package manager around a read-modify-write of the `packages`
 * key: the folder `<file>.lock`, created with mkdir (atomic, so exactly one process holds it), counted
 * as abandoned after 10 s as pi counts it. The settings plugin takes the same lock for its writes, so
 * pi, pi-host's settings writes and concurrent `pi install`s all exclude one another.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname } from "node:path";

/** How long to wait for the lock and when a held lock counts as abandoned. */
export interface SettingsLockPolicy {
  /** Give up after this long (under pi's stale age, so a live holder is never taken over). */
  waitMs: number;
  delayMs: number;
  /** pi's stale-lock age. */
  staleMs: number;
}

const DEFAULT_POLICY: SettingsLockPolicy = { waitMs: 5_000, delayMs: 25, staleMs: 10_000 };

/** Runs `body` holding `<file>.lock`; rejects with one line when another process holds it too long. */
export async function withSettingsLock<T>(
  file: string,
  body: () => Promise<T>,
  policy: SettingsLockPolicy = DEFAULT_POLICY,
): Promise<T> {
  const lockPath = `${file}.lock`;
  await mkdir(dirname(file), { recursive: true });
  const giveUpAt = Date.now() + policy.waitMs;
  for (;;) {
    if (await tryLock(lockPath)) break;
    const age = await ageMs(lockPath);
    if (age !== undefined && age > policy.staleMs) {
      await rmdir(lockPath).catch(() => undefined);
      continue;
    }
    if (Date.now() > giveUpAt) throw new Error(`${file}: another process is writing it (lock ${lockPath}); try again`);
    await new Promise((resolve) => setTimeout(resolve, policy.delayMs + Math.floor(Math.random() * policy.delayMs)));
  }
  try {
    return await body();
  } finally {
    await rmdir(lockPath).catch(() => undefined);
  }
}

/** Replaces `file` with `text` through a temporary file and a rename, keeping the file's mode. */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const mode = await stat(file).then(
    (s) => s.mode & 0o777,
    () => 0o644,
  );
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temp, "wx", mode);
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function tryLock(path: string): Promise<boolean> {
  try {
    await mkdir(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

async function ageMs(path: string): Promise<number | undefined> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}
