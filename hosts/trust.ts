/**
 * Project trust, as pi 1.6.0 keeps it. A project folder's `.pi/settings.json`, `.pi/extensions`, skills,
 * prompts, SYSTEM.md, MCP servers, packages and pi-host's `.pi/plugins.json` can run code or steer the
 * model, so they apply only once the user trusts the folder. Decisions live in `<agentDir>/trust.json`,
 * the file pi itself reads and writes: `{ "<canonical absolute folder>": true | false | null }`, the
 * nearest decided ancestor wins, written sorted as 2-space JSON under a `trust.json.lock` folder lock.
 * The older pi-host list `trusted-projects.json` is still read, each entry as a `true` decision.
 */
import { existsSync, realpathSync } from "node:fs";
import { mkdir, readFile, rename, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

/** A saved decision: true trusts, false refuses, null clears (as if nothing were saved). */
export type TrustValue = boolean | null;

/** The file system calls the store makes; tests pass failing ones (a full disk). */
export interface TrustFileAccess {
  readFile(path: string): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

/** The real file system. */
export const nodeTrustFileAccess: TrustFileAccess = {
  readFile: (path) => readFile(path, "utf8"),
  writeFile: (path, text) => writeFile(path, text, { mode: 0o600 }),
  rename,
  unlink,
};

/** Where pi 1.6.0 and pi-host keep decisions. */
export function trustStorePath(agent: string): string {
  return join(agent, "trust.json");
}

function legacyListPath(agent: string): string {
  return join(agent, "trusted-projects.json");
}

/** A folder as the store keys it: absolute, symlinks resolved when the folder exists. */
export function canonicalDir(dir: string): string {
  const absolute = resolve(dir);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Every saved decision: trust.json, over the old list's entries (each `true`). Unreadable files decide nothing. */
export async function readTrustStore(
  agent: string,
  files: TrustFileAccess = nodeTrustFileAccess,
): Promise<Record<string, TrustValue>> {
  const store: Record<string, TrustValue> = {};
  for (const dir of await legacyTrustedList(agent, files)) store[dir] = true;
  try {
    const data = JSON.parse(await files.readFile(trustStorePath(agent))) as unknown;
    if (data !== null && typeof data === "object" && !Array.isArray(data)) {
      for (const [dir, value] of Object.entries(data as Record<string, unknown>)) {
        if (value === true || value === false || value === null) store[dir] = value;
      }
    }
  } catch {
    // Missing or broken: no decisions from it.
  }
  return store;
}

async function legacyTrustedList(agent: string, files: TrustFileAccess): Promise<string[]> {
  try {
    const data = JSON.parse(await files.readFile(legacyListPath(agent))) as unknown;
    return Array.isArray(data) ? data.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

/** The trusted folders (true decisions), for listings. */
export async function trustedProjects(agent: string): Promise<string[]> {
  return Object.entries(await readTrustStore(agent))
    .filter(([, value]) => value === true)
    .map(([dir]) => dir)
    .sort();
}

/** The decision that applies to `cwd`: its own, else its nearest decided ancestor's; undefined when none. */
export async function savedDecision(
  agent: string,
  cwd: string,
  files: TrustFileAccess = nodeTrustFileAccess,
): Promise<{ dir: string; trusted: boolean } | undefined> {
  const store = await readTrustStore(agent, files);
  // Both spellings: the canonical one pi writes, and the plain absolute one older lists hold.
  for (const start of new Set([canonicalDir(cwd), resolve(cwd)])) {
    for (let dir = start; ; dir = dirname(dir)) {
      const value = store[dir];
      if (value === true || value === false) return { dir, trusted: value };
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}

/** Whether a saved decision trusts `cwd` (nearest decided ancestor wins; a `false` below a trusted parent refuses). */
export async function isTrusted(agent: string, cwd: string): Promise<boolean> {
  return (await savedDecision(agent, cwd))?.trusted === true;
}

/** How long to wait for another writer's lock, and when a lock counts as abandoned (pi's 10 s). */
const LOCK = { attempts: 100, delayMs: 20, staleMs: 10_000 };

/**
 * Saves a decision for `dir` (canonical) in trust.json, under the lock pi takes, re-reading the file
 * inside the lock so a decision pi saved meanwhile is kept. The file is replaced atomically; on any
 * failure (a full disk) the temporary file is removed and the old file stays as it was.
 */
export async function saveTrustDecision(
  agent: string,
  dir: string,
  value: TrustValue,
  files: TrustFileAccess = nodeTrustFileAccess,
): Promise<string> {
  const key = canonicalDir(dir);
  const file = trustStorePath(agent);
  await mkdir(dirname(file), { recursive: true });
  await withLock(`${file}.lock`, async () => {
    let current: Record<string, unknown> = {};
    try {
      const data = JSON.parse(await files.readFile(file)) as unknown;
      if (data !== null && typeof data === "object" && !Array.isArray(data)) current = data as Record<string, unknown>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" && !(error instanceof SyntaxError)) throw error;
    }
    current[key] = value;
    const sorted = Object.fromEntries(
      Object.keys(current)
        .sort()
        .map((k) => [k, current[k]]),
    );
    const temp = `${file}.${process.pid}.tmp`;
    try {
      await files.writeFile(temp, `${JSON.stringify(sorted, null, 2)}\n`);
      await files.rename(temp, file);
    } catch (error) {
      await files.unlink(temp).catch(() => undefined);
      throw error;
    }
  });
  return key;
}

/** Trusts a folder for good (`pi trust`). Kept for callers that only ever trust. */
export async function trustProject(agent: string, dir: string): Promise<void> {
  await saveTrustDecision(agent, dir, true);
}

/** Runs `body` holding the `<file>.lock` folder lock, taking over a lock older than pi's 10 s. */
async function withLock(lockPath: string, body: () => Promise<void>): Promise<void> {
  let acquired = false;
  for (let attempt = 0; attempt < LOCK.attempts && !acquired; attempt++) {
    try {
      await mkdir(lockPath);
      acquired = true;
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const age = await stat(lockPath).then(
      (s) => Date.now() - s.mtimeMs,
      () => undefined,
    );
    if (age !== undefined && age > LOCK.staleMs) {
      await rmdir(lockPath).catch(() => undefined);
      continue;
    }
    await new Promise((done) => setTimeout(done, LOCK.delayMs));
  }
  if (!acquired)
    throw new Error(`another process is writing ${dirname(lockPath)}/trust.json (lock ${lockPath}); try again`);
  try {
    await body();
  } finally {
    await rmdir(lockPath).catch(() => undefined);
  }
}

/** pi's protected project resources, relative to the folder they are found in. */
const PROTECTED_IN_PI = [
  ".pi/settings.json",
  ".pi/mcp.json",
  ".pi/extensions",
  ".pi/skills",
  ".pi/prompts",
  ".pi/themes",
  ".pi/SYSTEM.md",
  ".pi/APPEND_SYSTEM.md",
  ".pi/plugins.json",
];

/**
 * The protected resources `cwd` holds, as paths relative to it (`.agents/skills` of an ancestor as an
 * absolute path): pi's list plus pi-host's `.pi/plugins.json`. Project packages live in
 * `.pi/settings.json`, so they are covered by it. `homeDir`'s own `~/.agents/skills` is the user's, not
 * a project's. A bare `.pi` folder needs no decision.
 */
export function protectedResources(cwd: string, homeDir: string): string[] {
  const found = PROTECTED_IN_PI.filter((path) => existsSync(join(cwd, path)));
  const userAgents = resolve(homeDir, ".agents", "skills");
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const skills = join(dir, ".agents", "skills");
    if (skills !== userAgents && existsSync(skills)) found.push(dir === resolve(cwd) ? ".agents/skills" : skills);
    if (dirname(dir) === dir) break;
  }
  return found;
}
