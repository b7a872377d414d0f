/**
 * `<agentDir>/auth.json`, in pi's format: `{ "<provider>": { "type": "api_key", "key": "..." } }`
 * and `{ "type": "oauth", "refresh", "access", "expires", ... }` for account sign-ins (oauth-store.ts). The file holds secrets, so
 * it is written with mode 0600, atomically (a temp file renamed over the old one), so a crash or a
 * concurrent reader never sees half a file.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { withFileLock } from "pi-host";

/** One credential entry: `api_key` or `oauth`; unknown types are preserved on write. */
export interface AuthEntry {
  type: string;
  key?: string;
  [field: string]: unknown;
}

export type AuthData = Record<string, AuthEntry>;

/** An auth.json problem: one line naming the file and the field. */
export class AuthFileError extends Error {
  constructor(
    readonly file: string,
    field: string | undefined,
    reason: string,
  ) {
    super(`${file}: ${field ? `${field}: ` : ""}${reason}`);
    this.name = "AuthFileError";
  }
}

/** Reads auth.json, re-parsing only when the file changed. A missing file is an empty one. */
export class AuthFile {
  private cached: { stamp: string; data?: AuthData; error?: Error } | undefined;

  constructor(readonly path: string) {}

  async read(): Promise<AuthData> {
    const stamp = await fileStamp(this.path);
    if (this.cached === undefined || this.cached.stamp !== stamp) {
      try {
        this.cached = {
          stamp,
          data: stamp === "missing" ? {} : parseAuth(this.path, await readFile(this.path, "utf8")),
        };
      } catch (error) {
        // A read error from the system (EACCES, EISDIR) does not name the file; the user needs to know which.
        const problem =
          error instanceof AuthFileError
            ? error
            : new AuthFileError(this.path, undefined, `cannot be read (${(error as Error).message})`);
        this.cached = { stamp, error: problem };
      }
    }
    if (this.cached.error !== undefined) throw this.cached.error;
    return this.cached.data!;
  }

  /** Sets one provider's API key, keeping every other entry; refuses to overwrite a file it cannot parse. */
  async setApiKey(provider: string, key: string): Promise<void> {
    await this.update(provider, () => ({ type: "api_key", key }));
  }

  /**
   * Replaces (or, for undefined, removes) one provider's entry under the file lock, reading the file
   * afresh so an entry another process wrote a moment ago is kept. Returns the entry it replaced.
   */
  update(
    provider: string,
    next: (current: AuthEntry | undefined) => AuthEntry | undefined,
  ): Promise<AuthEntry | undefined> {
    return withFileLock(this.path, async () => {
      const current = await this.readFresh();
      await this.writeEntryLocked(current, provider, next(current[provider]));
      return current[provider];
    });
  }

  /** The file as it is on disk now, bypassing the cache (for use under the lock). */
  async readFresh(): Promise<AuthData> {
    this.cached = undefined;
    return this.read();
  }

  /** Writes `data` with `provider` set to `entry` (removed when undefined); the caller holds the lock. */
  async writeEntryLocked(data: AuthData, provider: string, entry: AuthEntry | undefined): Promise<void> {
    const next: AuthData = { ...data };
    if (entry === undefined) delete next[provider];
    else next[provider] = entry;
    await writeAtomically(this.path, `${JSON.stringify(next, null, 2)}\n`);
    this.cached = undefined;
  }
}

/** Parses auth.json text; every problem names the file and the entry. */
export function parseAuth(file: string, text: string): AuthData {
  let data: unknown;
  try {
    data = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw new AuthFileError(file, undefined, `not valid JSON (${(error as Error).message}); fix the file`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new AuthFileError(file, undefined, `must be an object like {"anthropic": {"type": "api_key", "key": "..."}}`);
  }
  for (const [provider, entry] of Object.entries(data as Record<string, unknown>)) {
    if (
      entry === null ||
      typeof entry !== "object" ||
      Array.isArray(entry) ||
      typeof (entry as AuthEntry).type !== "string"
    ) {
      throw new AuthFileError(file, provider, `must be an object with a "type" ("api_key" or "oauth")`);
    }
    const typed = entry as AuthEntry;
    if (typed.type === "api_key" && (typeof typed.key !== "string" || typed.key === "")) {
      throw new AuthFileError(file, `${provider}.key`, "must be a non-empty string");
    }
    if (typed.type === "oauth") {
      for (const field of ["refresh", "access"]) {
        if (typeof typed[field] !== "string") throw new AuthFileError(file, `${provider}.${field}`, "must be a string");
      }
      if (typeof typed.expires !== "number") throw new AuthFileError(file, `${provider}.expires`, "must be a number");
    }
  }
  return data as AuthData;
}

/** Writes `text` to `path` with mode 0600 through a temp file in the same folder and a rename. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function fileStamp(file: string): Promise<string> {
  try {
    const s = await stat(file);
    if (s.isDirectory())
      throw new AuthFileError(
        file,
        undefined,
        `is a folder, not a file; move it away so pi can create auth.json there`,
      );
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch (error) {
    if (error instanceof AuthFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw new AuthFileError(file, undefined, `cannot be read (${(error as Error).message})`);
  }
}
