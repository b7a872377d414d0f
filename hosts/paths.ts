/**
 * Where pi-host keeps things, following pi's layout so both tools share one agent folder.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { agentDir as kitAgentDir } from "../kit/index.js";

/** The agent folder: `PI_CODING_AGENT_DIR`, else `~/.pi/agent` (kit's one rule, no configured folder). */
export function agentDir(env: NodeJS.ProcessEnv = process.env): string {
  return kitAgentDir(undefined, env);
}

/** The project's config folder: `<cwd>/.pi`. */
export function projectDir(cwd: string): string {
  return join(cwd, ".pi");
}

/** Expands a leading `~` to the home folder. */
export function expandHome(path: string): string {
  return path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}
