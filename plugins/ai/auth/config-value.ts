/**
 * Key values are written the way pi 1.6 reads them: `!command` runs a shell command and uses its trimmed
 * output (so a key can live in a password manager), `$NAME` and `${NAME}` insert environment variables
 * (kit's interpolateValue; `$$` and `$!` are a literal `$` and `!`), and the rest is the key itself.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { interpolateValue } from "pi-host";

/** Starts a process; the plugin passes its context's owned `spawn`, so retire ends a hung command. */
export type Spawner = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** How long a `!command` may run before it counts as failed. */
export const COMMAND_TIMEOUT_MS = 10_000;

/** Whether a value is a `!command`. */
export function isCommand(spec: string): boolean {
  return spec.startsWith("!");
}

/**
 * Resolves one value. A failing `!command`, or a `$NAME` that is not set, throws one line saying which,
 * for what (`what`, e.g. `the key for "anthropic" in /home/me/.pi/agent/auth.json`) and why.
 */
export async function resolveValue(
  spec: string,
  what: string,
  env: NodeJS.ProcessEnv,
  spawn: Spawner,
): Promise<string> {
  if (!isCommand(spec)) {
    const { value, missing } = interpolateValue(spec, env);
    if (value !== undefined) return value;
    const names = missing.map((name) => `$${name}`).join(", ");
    throw new Error(`${what} uses ${names}, which ${missing.length > 1 ? "are" : "is"} not set in the environment`);
  }
  const command = spec.slice(1).trim();
  const { code, stdout, stderr, error } = await run(command, env, spawn);
  const value = stdout.trim();
  if (error !== undefined || code !== 0 || value === "") {
    const why =
      error ??
      (code !== 0 ? `exit code ${code}${firstLine(stderr) ? `: ${firstLine(stderr)}` : ""}` : "it printed nothing");
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
      finish(null, `timed out after ${COMMAND_TIMEOUT_MS / 1000} s`);
      child.kill("SIGKILL");
    }, COMMAND_TIMEOUT_MS);
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

function firstLine(text: string): string | undefined {
  return text
    .split("\n")
    .find((l) => l.trim() !== "")
    ?.trim();
}
