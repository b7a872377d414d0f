/**
 * pi's settings, global (`<agentDir>/settings.json`) deep-merged with project (`<cwd>/.pi/settings.json`,
 * which wins, and only in a trusted project) over pi's defaults. Reads are cached per file by change stamp. A write changes one key of
 * one file: under the same `<file>.lock` folder lock pi takes (so pi and pi-host writing at once do not
 * lose each other's keys), re-reading the file, then replacing it atomically with 2-space JSON.
 */
import { join } from "node:path";
import type { Settings, SettingsStore } from "pi-host";
import { piSettingDefaults } from "./defaults.js";
import { keyPath, setAtPath } from "./dotted-key.js";
import { nodeSettingsFileAccess, type SettingsFileAccess } from "./file-access.js";
import { deepMerge } from "./merge.js";
import { CachedSettingsFile, parseSettingsText } from "./settings-file.js";

/** How long to wait for another writer's lock, and when a lock counts as abandoned (pi's 10 s). */
export interface LockPolicy {
  attempts: number;
  delayMs: number;
  staleMs: number;
}

/** What the store is built from. */
export interface SettingsStoreOptions {
  agentDir: string;
  /** Defaults to the real file system; tests pass a counting one. */
  files?: SettingsFileAccess;
  /** For the environment-dependent defaults. */
  env?: NodeJS.ProcessEnv;
  lock?: Partial<LockPolicy>;
  /**
   * Whether the project file for `cwd` applies (project trust). The plugin always passes the host's
   * decision; left out (a store used directly, as tests do) the project file applies.
   */
  projectApplies?: (cwd: string) => Promise<boolean>;
}

const DEFAULT_LOCK: LockPolicy = { attempts: 50, delayMs: 20, staleMs: 10_000 };

/** The SettingsContract implementation. */
export class FileSettingsStore implements SettingsStore {
  private readonly files: SettingsFileAccess;
  private readonly env: NodeJS.ProcessEnv;
  private readonly lock: LockPolicy;
  private readonly cache = new Map<string, CachedSettingsFile>();
  /** One write at a time per file within this process. */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(private readonly options: SettingsStoreOptions) {
    this.files = options.files ?? nodeSettingsFileAccess;
    this.env = options.env ?? process.env;
    this.lock = { ...DEFAULT_LOCK, ...options.lock };
  }

  /** The global settings file. */
  get globalPath(): string {
    return join(this.options.agentDir, "settings.json");
  }

  /** The project settings file for `cwd`. */
  projectPath(cwd: string): string {
    return join(cwd, ".pi", "settings.json");
  }

  async get(cwd: string): Promise<Settings> {
    const global = await this.file(this.globalPath).read();
    // An untrusted project's settings are code (mcpServers, extensions, packages, shellCommandPrefix,
    // npmCommand, ...), so none of them apply: the file is not even read.
    const applies = this.options.projectApplies === undefined || (await this.options.projectApplies(cwd));
    const project = applies ? await this.file(this.projectPath(cwd)).read() : {};
    return deepMerge(deepMerge(piSettingDefaults(this.env), global), project) as Settings;
  }

  async set(cwd: string, key: string, value: unknown, scope: "global" | "project"): Promise<void> {
    if (scope !== "global" && scope !== "project")
      throw new Error(`invalid settings scope "${String(scope)}": use "global" or "project"`);
    const path = keyPath(key);
    const stored = value === undefined ? undefined : jsonCopy(key, value);
    const file = scope === "global" ? this.globalPath : this.projectPath(cwd);
    const previous = this.writes.get(file) ?? Promise.resolve();
    const write = previous.then(() => this.writeKey(file, path, stored));
    const settled = write.catch(() => undefined);
    this.writes.set(file, settled);
    void settled.then(() => {
      if (this.writes.get(file) === settled) this.writes.delete(file);
    });
    return write;
  }

  private async writeKey(file: string, path: string[], value: unknown): Promise<void> {
    await this.withLock(file, async () => {
      const stamp = await this.files.stamp(file);
      const current = stamp === undefined ? {} : parseSettingsText(file, await this.files.readText(file));
      setAtPath(current, path, value, file);
      await this.files.writeAtomically(file, `${JSON.stringify(current, null, 2)}\n`);
    });
    this.file(file).forget();
  }

  private async withLock(file: string, body: () => Promise<void>): Promise<void> {
    const lockPath = `${file}.lock`;
    let acquired = false;
    for (let attempt = 0; attempt < this.lock.attempts && !acquired; attempt++) {
      acquired = await this.files.tryLock(lockPath);
      if (acquired) break;
      const age = await this.files.lockAgeMs(lockPath);
      if (age !== undefined && age > this.lock.staleMs) {
        await this.files.unlock(lockPath);
        continue;
      }
      if (attempt < this.lock.attempts - 1) await new Promise((resolve) => setTimeout(resolve, this.lock.delayMs));
    }
    if (!acquired) throw new Error(`${file}: another process is writing it (lock ${lockPath}); try again`);
    try {
      await body();
    } finally {
      await this.files.unlock(lockPath);
    }
  }

  private file(path: string): CachedSettingsFile {
    let file = this.cache.get(path);
    if (file === undefined) {
      file = new CachedSettingsFile(path, this.files);
      this.cache.set(path, file);
    }
    return file;
  }
}

/** The value as JSON will store it; refuses values JSON cannot hold. */
function jsonCopy(key: string, value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new Error(`cannot store settings key "${key}": ${(error as Error).message}`);
  }
  if (text === undefined) throw new Error(`cannot store settings key "${key}": a ${typeof value} is not a JSON value`);
  return JSON.parse(text);
}
