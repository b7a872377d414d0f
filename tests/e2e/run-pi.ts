/** Runs the built `pi` binary as a user would: a spawned process with its own cwd and environment. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const PI_BIN = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface PiRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `node dist/cli.js ...args`; resolves when it exits. */
export function runPi(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<PiRun> {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PI_BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}
