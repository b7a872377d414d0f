/**
 * `env` and `headers` values of mcp.json servers, resolved the way pi 1.6 resolves them when a server
 * starts: `$NAME` / `${NAME}` insert an environment variable (kit's interpolateValue, the rule models.json
 * uses too: `$$` and `$!` are a literal `$` and `!`), and a value that starts with `!` runs the rest as a
 * shell command and uses its trimmed output. Resolving at start, not when listing, keeps a `!command`
 * from running every turn and lets a changed variable reach the next start.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { interpolateValue, isCommandValue } from "pi-host";

/** Starts a process; the plugin passes its context's owned `spawn`, so a retire ends a hung command. */
export type Spawner = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** How long a `!command` may run before it counts as failed. */
export const VALUE_COMMAND_TIMEOUT_MS = 10_000;

/**
 * Every value of `values` resolved; throws one line naming the field (`what`, e.g. `env "TOKEN"`) and
 * why: an unset variable, or a command that failed, timed out or printed nothing.
 */
export async function resolveValues(
  values: Record<string, string>,
  field: string,
  env: NodeJS.ProcessEnv,
  spawn: Spawner,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, spec] of Object.entries(values)) out[key] = await resolveOne(spec, `${field} "${key}"`, env, spawn);
  return out;
}

async function resolveOne(spec: string, what: string, env: NodeJS.ProcessEnv, spawn: Spawner): Promise<string> {
  if (!isCommandValue(spec)) {
    const { value, missing } = interpolateValue(spec, env);
    if (value !== undefined) return value;
    const names = missing.map((name) => `$${name}`).join(", ");
    throw new Error(`${what} uses ${names}, which ${missing.length > 1 ? "are" : "is"} not set in the environment`);
  }
  const command = spec.slice(1).trim();
  const { code, stdout, stderr, error } = await run(command, env, spawn);
  const value = stdout.trim();
  if (error !== undefined || code !== 0 || value === "") {
    const firstLine = stderr
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim();
    const why = error ?? (code !== 0 ? `exit code ${code}${firstLine ? `: ${firstLine}` : ""}` : "it printed nothing");
    throw new Error(`the command for ${what} failed (${why}): !${command}`);
  }
  return value;
}

function run(
  command: string,
  env: NodeJS.ProcessEnv,
  spawn: Spawner,
): Promise<{ code: number | null; stdout: string; stderr: string; error?: string }> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const child = spawn("/bin/sh", ["-c", command], { env, stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => {
      finish(null, `timed out after ${VALUE_COMMAND_TIMEOUT_MS / 1000} s`);
      child.kill("SIGKILL");
    }, VALUE_COMMAND_TIMEOUT_MS);
    const finish = (code: number | null, error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ...(error !== undefined ? { error } : {}) });
    };
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", (error) => finish(null, error.message));
    child.on("close", (code) => finish(code));
  });
}
