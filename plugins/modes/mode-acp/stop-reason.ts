/**
 * Why a prompt turn ended, in ACP's words. pi's messages know five stop reasons; ACP has its own set and
 * no "error" (a failed turn is a JSON-RPC error instead). A model's refusal reaches pi-host as an error
 * whose message says so (the provider plugins word it), so it is recognised by that wording.
 */
import type { StopReason } from "@agentclientprotocol/sdk";
import type { AssistantMessage } from "pi-host";

/** How a turn ended: an ACP stop reason, or the error the prompt request fails with. */
export type TurnEnd = { stopReason: StopReason } | { error: string };

const REFUSAL = /\brefus|declined to answer|safety filters|prohibited content|blocklist/i;

/** The end of a turn from its last assistant message (none: a command or hook handled the prompt). */
export function turnEnd(last: AssistantMessage | undefined, cancelled: boolean): TurnEnd {
  if (cancelled || last?.stopReason === "aborted") return { stopReason: "cancelled" };
  if (last === undefined) return { stopReason: "end_turn" };
  if (last.stopReason === "length") return { stopReason: "max_tokens" };
  if (last.stopReason === "error") {
    const message = last.errorMessage ?? "the model request failed";
    return REFUSAL.test(message) ? { stopReason: "refusal" } : { error: message };
  }
  return { stopReason: "end_turn" };
}
