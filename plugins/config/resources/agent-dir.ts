/**
 * The agent folder, located as pi locates it so pi and pi-host share one set of
 * skills, prompt templates, AGENTS.md, SYSTEM.md and APPEND_SYSTEM.md: the plugin's
 * `agentDir` config, else `PI_CODING_AGENT_DIR`, else `~/.pi/agent`. A leading `~` means the home folder.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The agent folder for this plugin generation. */
export function agentDirFor(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = configured ?? env.PI_CODING_AGENT_DIR;
  if (chosen === undefined || chosen === "") return join(homedir(), ".pi", "agent");
  const expanded = chosen === "~" ? homedir() : chosen.startsWith("~/") ? join(homedir(), chosen.slice(2)) : chosen;
  return resolve(expanded);
}

/** Expands a leading `~` and resolves a relative path against `base`, as pi does for --skill paths. */
export function resolveUserPath(path: string, base: string): string {
  const trimmed = path.trim();
  if (trimmed === "~") return homedir();
  if (trimmed.startsWith("~/")) return join(homedir(), trimmed.slice(2));
  return resolve(base, trimmed);
}
