/**
 * The agent folder, located as pi locates it so pi and pi-host share one settings.json: the plugin's
 * `agentDir` config, else `PI_CODING_AGENT_DIR`, else `~/.pi/agent`. A leading `~` means the home folder.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Where the global settings.json lives for this plugin generation. */
export function agentDirFor(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = configured ?? env.PI_CODING_AGENT_DIR;
  if (chosen === undefined || chosen === "") return join(homedir(), ".pi", "agent");
  const expanded = chosen === "~" ? homedir() : chosen.startsWith("~/") ? join(homedir(), chosen.slice(2)) : chosen;
  return resolve(expanded);
}
