/**
 * One settings.json (global or project): parsed, upgraded and cached by its change stamp, so the many
 * get() calls of a session read the file only when it changed. A problem is one line naming the file.
 */
import { findWrongKeyType } from "./key-types.js";
import { isPlainObject } from "./merge.js";
import { upgradeLegacyKeys } from "./migrate.js";
import type { SettingsFileAccess } from "./file-access.js";

/** A settings file that cannot be used: the message names the file and says what to do. */
export class SettingsFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason.replace(/\s*\n\s*/g, " ")}`);
    this.name = "SettingsFileError";
  }
}

/** Parses one settings file's text; empty text is an empty object, as in pi. */
export function parseSettingsText(file: string, text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SettingsFileError(file, `not valid JSON (${(error as Error).message}); fix or delete the file`);
  }
  if (!isPlainObject(data)) throw new SettingsFileError(file, `must hold a JSON object like {"defaultModel": "..."}`);
  return data;
}

/** Reads one settings file through a cache keyed by the file's stamp. */
export class CachedSettingsFile {
  private cached: { stamp: string; data?: Record<string, unknown>; error?: Error } | undefined;

  constructor(
    readonly path: string,
    private readonly fs: SettingsFileAccess,
  ) {}

  /** The upgraded content ({} when the file is missing). Callers must not mutate the result. */
  async read(): Promise<Record<string, unknown>> {
    let stamp: string | undefined;
    try {
      stamp = await this.fs.stamp(this.path);
    } catch (error) {
      throw new SettingsFileError(this.path, `cannot be read (${(error as Error).message})`);
    }
    if (stamp === undefined) {
      this.cached = undefined;
      return {};
    }
    if (this.cached?.stamp !== stamp) this.cached = await this.load(stamp);
    if (this.cached.error !== undefined) throw this.cached.error;
    return this.cached.data!;
  }

  /** Forgets the cached content (after this process wrote the file). */
  forget(): void {
    this.cached = undefined;
  }

  private async load(stamp: string): Promise<{ stamp: string; data?: Record<string, unknown>; error?: Error }> {
    try {
      const text = await this.fs.readText(this.path);
      const data = upgradeLegacyKeys(parseSettingsText(this.path, text));
      const wrongType = findWrongKeyType(data);
      if (wrongType !== undefined) throw new SettingsFileError(this.path, wrongType);
      return { stamp, data };
    } catch (error) {
      const problem =
        error instanceof SettingsFileError
          ? error
          : new SettingsFileError(this.path, `cannot be read (${(error as Error).message})`);
      return { stamp, error: problem };
    }
  }
}
