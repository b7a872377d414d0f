/**
 * Values in models.json (`apiKey`, header values) are written the way pi 1.6 reads them: `!command` runs a
 * shell command and uses its trimmed output (so secrets can live in a password manager), `$NAME` and
 * `${NAME}` insert environment variables (kit's interpolateValue), and the rest is literal.
 */
import { childProcess, interpolateValue } from "pi-host";

/** How long a `!command` may run before it counts as failed. */
export const COMMAND_TIMEOUT_MS = 10_000;

/**
 * Resolves one config value now; undefined when it names an unset variable (pi then sends no such
 * header). Throws a one-line Error when a `!command` fails or prints nothing.
 */
export function resolveConfigValue(spec: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (spec.startsWith("!")) {
    const command = spec.slice(1).trim();
    let output: string;
    try {
      output = childProcess().execSync(command, {
        encoding: "utf8",
        timeout: COMMAND_TIMEOUT_MS,
        stdio: ["ignore", "pipe", "pipe"],
        env,
      });
    } catch (error) {
      const e = error as { status?: number | null; stderr?: string; message: string };
      const detail =
        firstLine(e.stderr) ??
        (e.status !== undefined && e.status !== null ? `exit code ${e.status}` : firstLine(e.message));
      throw new Error(`command "${command}" failed${detail ? ` (${detail})` : ""}`);
    }
    const value = output.trim();
    if (value === "") throw new Error(`command "${command}" printed nothing`);
    return value;
  }
  return interpolateValue(spec, env).value;
}

function firstLine(text: string | undefined): string | undefined {
  const line = text?.split("\n").find((l) => l.trim() !== "");
  return line?.trim();
}
