/**
 * Which shell runs a command. Like pi: an explicit `shellPath` if configured, else /bin/bash, else bash
 * found on PATH, else sh — always invoked as `<shell> -c <script>`.
 */
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** A shell executable and the arguments that precede the script. */
export interface ShellConfig {
  path: string;
  args: string[];
}

/** Resolves the shell to use; throws a one-line error when a configured `shellPath` does not exist. */
export function resolveShell(shellPath: string | undefined): ShellConfig {
  if (shellPath !== undefined) {
    if (!existsSync(shellPath)) throw new Error(`Custom shell path not found: ${shellPath}`);
    return { path: shellPath, args: ["-c"] };
  }
  if (existsSync("/bin/bash")) return { path: "/bin/bash", args: ["-c"] };
  const onPath = findOnPath("bash");
  return { path: onPath ?? "sh", args: ["-c"] };
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
