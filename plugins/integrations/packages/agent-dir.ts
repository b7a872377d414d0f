/**
 * The agent folder, located as pi locates it so pi and pi-host share one `packages` setting and one set
 * of install folders: the plugin's `agentDir` config, else `PI_CODING_AGENT_DIR`, else `~/.pi/agent`.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The global scope's folder for this plugin generation. */
export function agentDirFor(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = configured ?? env.PI_CODING_AGENT_DIR;
  if (chosen === undefined || chosen === "") return join(homedir(), ".pi", "agent");
  const expanded = chosen === "~" ? homedir() : chosen.startsWith("~/") ? join(homedir(), chosen.slice(2)) : chosen;
  return resolve(expanded);
}
