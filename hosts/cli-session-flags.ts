/**
 * The session flags that act once the session is open: `--fork` and `-n/--name`. They go through the
 * session's own contract operations, so whichever plugin provides `agent/session` carries them out.
 */
import { AgentSessionContract } from "../contracts/agent-session.js";
import type { Kernel } from "../kernel/index.js";
import type { CliArgs } from "./cli-flags.js";

/**
 * `--fork`: the opened session is copied into a new one, which the run continues, so the original stays
 * as it was; `-n/--name`: the session gets its display name. Returns an error line, or undefined.
 */
export async function prepareSession(kernel: Kernel, args: CliArgs): Promise<string | undefined> {
  if (args.fork === undefined && args.name === undefined) return undefined;
  const session = kernel.use(AgentSessionContract);
  if (!session.available) return `no plugin provides "${AgentSessionContract.id}"; enable one in plugins.json`;
  try {
    if (args.fork !== undefined) await session.api.clone();
    if (args.name !== undefined) await session.api.setSessionName(args.name.trim());
  } catch (error) {
    return `${args.fork !== undefined ? `--fork ${args.fork}` : "--name"}: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}
