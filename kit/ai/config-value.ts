/**
 * One config value resolved when it is needed, as pi 1.6 does for auth.json keys and mcp.json `env` /
 * `headers`: a `!command` runs in `/bin/sh -c` and its trimmed output is the value; anything else is
 * interpolated (`$NAME`, `${NAME}`: config-template.ts). The command runs through the caller's spawner,
 * so a plugin passes its context's owned `spawn` and a retire ends a hung command.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { interpolateValue, isCommandValue } from "./config-template.js";

/** Starts a process (a plugin context's `spawn`). */
export type ConfigSpawner = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** How long a `!command` may run before it counts as failed. */
export const CONFIG_COMMAND_TIMEOUT_MS = 10_000;

/**
 * Resolves `spec`. A `$NAME` that is not set, or a `!command` that fails, times out or prints nothing,
 * throws one line saying for what (`what`, e.g. `env "TOKEN"` or `the key for "anthropic" in …`) and why.
 */
export async function resolveConfigSpec(
  spec: string,
  what: string,
  env: NodeJS.ProcessEnv,
  spawn: ConfigSpawner,
): Promise<string> {
  if (!isCommandValue(spec)) {
    const { value, missing } = interpolateValue(spec, env);
    if (value !== undefined) return value;
    const names = missing.map((name) => `$${name}`).join(", ");
    throw new Error(`${what} uses ${names}, which ${missing.length > 1 ? "are" : "is"} not set in the environment`);
  }
  const command = spec.slice(1).trim();
  const { code, stdout, stderr, error } = await runCommand(command, env, spawn);
  const value = stdout.trim();
  if (error !== undefined || code !== 0 || value === "") {
    const detail = firstLine(stderr);
    const why = error ?? (code !== 0 ? `exit code ${code}${detail ? `: ${detail}` : ""}` : "it printed nothing");
    throw new Error(`the command for ${what} failed (${why}): !${command}`);
  }
  return value;
}

function runCommand(
  command: string,
  env: NodeJS.ProcessEnv,
  spawn: ConfigSpawner,
): Promise<{ code: number | null; stdout: string; stderr: string; error?: string }> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const child = spawn("/bin/sh", ["-c", command], { env, stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => {
      finish(null, `timed out after ${CONFIG_COMMAND_TIMEOUT_MS / 1000} s`);
      child.kill("SIGKILL");
    }, CONFIG_COMMAND_TIMEOUT_MS);
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
