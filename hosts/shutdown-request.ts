/**
 * The host's side of `HOST_SHUTDOWN_REQUEST_EVENT` (pi's `ctx.shutdown()`): in a mode that runs until the
 * user leaves (interactive, RPC), a request stops the mode once the session is idle, so a command that
 * asked for it finishes first, as in pi. Print and JSON mode end after their prompts anyway and, as pi's
 * print mode, take no such request.
 */
import { AgentSessionContract } from "../contracts/agent-session.js";
import { HOST_SHUTDOWN_REQUEST_EVENT } from "../contracts/mode.js";
import type { Kernel } from "../kernel/index.js";

/** Modes that end by themselves when their prompts are done. */
const ENDS_BY_ITSELF = new Set(["print", "json"]);

/** Listens for shutdown requests while `mode` runs; `stop` asks the mode to end. Returns the unsubscribe. */
export function stopOnShutdownRequest(kernel: Kernel, mode: string, stop: () => void): () => void {
  if (ENDS_BY_ITSELF.has(mode)) return () => {};
  let requested = false;
  return kernel.on(HOST_SHUTDOWN_REQUEST_EVENT, () => {
    if (requested) return;
    requested = true;
    const session = kernel.use(AgentSessionContract);
    const idle = session.available ? Promise.resolve().then(() => session.api.idle()) : Promise.resolve();
    void idle.catch(() => undefined).then(stop);
  });
}
