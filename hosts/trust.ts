/**
 * Project trust. A project's `.pi/plugins.json` runs code from whatever repository the user cloned, so
 * it applies only to folders the user has trusted with `pi trust`; the list lives in the agent folder.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

function trustFile(agent: string): string {
  return join(agent, "trusted-projects.json");
}

/** The trusted project folders (absolute paths). A missing or unreadable list trusts nothing. */
export async function trustedProjects(agent: string): Promise<string[]> {
  try {
    const data = JSON.parse(await readFile(trustFile(agent), "utf8")) as unknown;
    return Array.isArray(data) ? data.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

/** Whether `cwd` or one of its ancestors is trusted. */
export async function isTrusted(agent: string, cwd: string): Promise<boolean> {
  const here = resolve(cwd);
  return (await trustedProjects(agent)).some((p) => here === p || here.startsWith(p.endsWith("/") ? p : `${p}/`));
}

/** Adds a folder to the trusted list, writing the list atomically. */
export async function trustProject(agent: string, dir: string): Promise<void> {
  const list = new Set(await trustedProjects(agent));
  list.add(resolve(dir));
  const file = trustFile(agent);
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify([...list].sort(), null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}
