/**
 * The agent folder, located as pi locates it so pi and pi-host share one auth.json, models.json,
 * settings.json, set of skills and package installs: a configured folder, else `PI_CODING_AGENT_DIR`,
 * else `~/.pi/agent`. A leading `~` means the home folder. Every plugin and host that needs the folder
 * asks this one function.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The agent folder: `configured` when given, else `PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function agentDir(configured?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = configured ?? env.PI_CODING_AGENT_DIR;
  if (chosen === undefined || chosen === "") return join(homedir(), ".pi", "agent");
  const expanded = chosen === "~" ? homedir() : chosen.startsWith("~/") ? join(homedir(), chosen.slice(2)) : chosen;
  return resolve(expanded);
}
