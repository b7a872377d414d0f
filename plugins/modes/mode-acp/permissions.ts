/**
 * Which tool calls need the user's permission, the choices an editor shows for one, and what each
 * answer means for the call. Tools that change things (edit, write, bash by default) ask; "always"
 * answers are remembered per ACP session, so the user is asked once per tool and session at most.
 */
import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { BeforeToolCallResult } from "pi-host";

/** The tools that ask by default: the built-ins that modify files or run commands. */
export const DEFAULT_ASK_PERMISSION = ["bash", "edit", "write"];

/** The choices offered for every call that asks. */
export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow this tool", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  { optionId: "reject_always", name: "Always reject this tool", kind: "reject_always" },
];

/** "Always" answers given in one ACP session. */
export interface PermissionMemory {
  allowed: Set<string>;
  rejected: Set<string>;
}

/** Whether a call of `tool` goes to the user: it is listed (or "*" is), and no "always" answer covers it. */
export function needsAsking(tool: string, askList: readonly string[], memory: PermissionMemory): boolean {
  if (memory.allowed.has(tool) || memory.rejected.has(tool)) return false;
  return askList.includes("*") || askList.includes(tool);
}

/** A call of a tool the user rejected for the rest of the session. */
export function rememberedRejection(tool: string, memory: PermissionMemory): BeforeToolCallResult | undefined {
  return memory.rejected.has(tool)
    ? { block: true, reason: `The user rejected every ${tool} call for this session, so this call was not run.` }
    : undefined;
}

/**
 * What the client's answer means: undefined lets the call run; a block carries the reason the model reads
 * as the call's error result. "Always" answers update `memory`.
 */
export function verdictOf(
  tool: string,
  outcome: RequestPermissionOutcome,
  memory: PermissionMemory,
): BeforeToolCallResult | undefined {
  if (outcome.outcome === "cancelled")
    return { block: true, reason: `The ${tool} call was not run: the permission request was cancelled.` };
  switch (outcome.optionId) {
    case "allow_always":
      memory.allowed.add(tool);
      return undefined;
    case "allow_once":
      return undefined;
    case "reject_always":
      memory.rejected.add(tool);
      return {
        block: true,
        reason: `The user rejected this ${tool} call (and every further one this session), so it was not run.`,
      };
    case "reject_once":
      return { block: true, reason: `The user rejected this ${tool} call, so it was not run.` };
    default:
      return {
        block: true,
        reason: `The ${tool} call was not run: the editor answered with an unknown option "${outcome.optionId}".`,
      };
  }
}
