/**
 * The last place a key can come from: the `apiKey` of a custom provider in `<agentDir>/models.json`
 * (pi's resolution order puts it after the flag, auth.json and the environment). Only that one field is
 * read here; the models plugin owns the rest of the file.
 */
import { readFile, stat } from "node:fs/promises";

/** Reads `providers.<name>.apiKey` from models.json, re-reading only when the file changed. */
export class ModelsFileKeys {
  private cached: { stamp: string; keys?: Map<string, string>; error?: Error } | undefined;

  constructor(readonly path: string) {}

  /** The raw apiKey spec (`!command`, an env name or a literal) for `provider`, if models.json has one. */
  async spec(provider: string): Promise<string | undefined> {
    const stamp = await fileStamp(this.path);
    if (this.cached === undefined || this.cached.stamp !== stamp) {
      try {
        this.cached = {
          stamp,
          keys: stamp === "missing" ? new Map() : keysOf(this.path, await readFile(this.path, "utf8")),
        };
      } catch (error) {
        // keysOf's errors name the file; a system read error (EISDIR, EACCES) does not, so it gets the path here.
        const message = (error as Error).message;
        this.cached = {
          stamp,
          error: message.startsWith(`${this.path}: `)
            ? (error as Error)
            : new Error(`${this.path}: cannot be read (${message})`),
        };
      }
    }
    if (this.cached.error !== undefined) throw this.cached.error;
    return this.cached.keys!.get(provider);
  }
}

function keysOf(file: string, text: string): Map<string, string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message}); fix the file`);
  }
  const keys = new Map<string, string>();
  const providers = (data as { providers?: unknown } | null)?.providers;
  if (providers === null || typeof providers !== "object") return keys;
  for (const [name, provider] of Object.entries(providers as Record<string, unknown>)) {
    const apiKey = (provider as { apiKey?: unknown } | null)?.apiKey;
    if (apiKey === undefined) continue;
    if (typeof apiKey !== "string" || apiKey === "")
      throw new Error(`${file}: providers.${name}.apiKey: must be a non-empty string`);
    keys.set(name, apiKey);
  }
  return keys;
}

async function fileStamp(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw new Error(`${file}: cannot be read (${(error as Error).message})`);
  }
}
