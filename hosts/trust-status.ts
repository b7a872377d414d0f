/**
 * The host's side of `host/trust`: what `/trust` shows about a folder and saving the decisions it
 * picks, over the trust.json store in ./trust.ts.
 */
import { dirname } from "node:path";
import type { HostTrust, TrustStatus, TrustUpdate } from "../contracts/host-trust.js";
import { canonicalDir, saveTrustDecision, savedDecision } from "./trust.js";

/** The provider for `agentDir`; `currentSession` is the decision the running session started with. */
export function hostTrust(agentDir: string, currentSession: boolean): HostTrust {
  return {
    async status(cwd: string): Promise<TrustStatus> {
      const dir = canonicalDir(cwd);
      const parent = dirname(dir);
      const saved = await savedDecision(agentDir, dir);
      return {
        dir,
        ...(parent !== dir && { parent }),
        ...(saved !== undefined && { saved }),
        currentSession,
      };
    },
    async save(updates: readonly TrustUpdate[]): Promise<void> {
      for (const update of updates) await saveTrustDecision(agentDir, update.dir, update.value);
    },
  };
}
