/**
 * Where session files live, exactly as pi places them, so pi and pi-host see the same sessions:
 * `<agentDir>/sessions/--<cwd, leading slash dropped, / \ : as ->--/<ISO time with : . as ->_<uuid>.jsonl`.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The agent folder: the plugin's `agentDir` config, else `PI_CODING_AGENT_DIR`, else `~/.pi/agent`; `~` is home. */
export function agentDirFor(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = configured ?? env.PI_CODING_AGENT_DIR;
  if (chosen === undefined || chosen === "") return join(homedir(), ".pi", "agent");
  const expanded = chosen === "~" ? homedir() : chosen.startsWith("~/") ? join(homedir(), chosen.slice(2)) : chosen;
  return resolve(expanded);
}

/** The folder holding every project's session folder. */
export function sessionsRoot(agentDir: string): string {
  return join(agentDir, "sessions");
}

/** pi's per-project session folder for `cwd`. */
export function defaultSessionDir(agentDir: string, cwd: string): string {
  const safe = `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
  return join(sessionsRoot(agentDir), safe);
}

/** An ISO time made safe for file names, as pi writes it (`2024-12-03T14-00-00-000Z`). */
export function fileTimestamp(isoTime: string): string {
  return isoTime.replace(/[:.]/g, "-");
}

/** The file a new session is written to. */
export function sessionFilePath(sessionDir: string, isoTime: string, sessionId: string): string {
  return join(sessionDir, `${fileTimestamp(isoTime)}_${sessionId}.jsonl`);
}
