/**
 * Maps pi's thinking levels onto OpenAI's `reasoning_effort` values. Both APIs and most compatible
 * servers use the same names (minimal, low, medium, high, xhigh), so a level passes through unchanged;
 * "off" and an absent level mean "do not ask for reasoning".
 */
import type { ThinkingLevel } from "pi-host";

/** An effort OpenAI understands. */
export type ReasoningEffort = Exclude<ThinkingLevel, "off">;

/** The effort to request, or undefined when the caller did not ask the model to think. */
export function reasoningEffort(level: ThinkingLevel | undefined): ReasoningEffort | undefined {
  return level === undefined || level === "off" ? undefined : level;
}
