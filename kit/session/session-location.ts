/**
 * Where session files live, exactly as pi places them, so pi and pi-host see the same sessions:
 * `<agentDir>/sessions/--<cwd, leading slash dropped, / \ : as ->--/<ISO time with : . as ->_<uuid>.jsonl`.
 */
import { join } from "node:path";

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
