/**
 * How hard Gemini thinks. Budget-based: each level maps to a token budget (overridable per level by
 * `options.thinkingBudgets`), and thoughts come back as summaries (`includeThoughts`). "off" asks for
 * no thinking where the model allows it; models that always think get their smallest setting and keep
 * their thoughts hidden.
 */
import type { ThinkingConfig } from "@google/genai";
import type { Model, ThinkingBudgets, ThinkingLevel } from "pi-host";

/** Default budgets in tokens; `xhigh` uses `high`'s. */
export const DEFAULT_THINKING_BUDGETS: Required<Omit<ThinkingBudgets, "xhigh">> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** The `thinkingConfig` for a request, or undefined for models that do not reason. */
export function thinkingConfigFor(
  model: Model,
  level: ThinkingLevel | undefined,
  budgets: ThinkingBudgets | undefined,
): ThinkingConfig | undefined {
  if (!model.reasoning) return undefined;
  if (level === undefined || level === "off") return lowestThinking(model.id);
  return { includeThoughts: true, thinkingBudget: budgetFor(level, budgets) };
}

function budgetFor(level: Exclude<ThinkingLevel, "off">, budgets: ThinkingBudgets | undefined): number {
  if (level === "xhigh") return budgets?.xhigh ?? budgets?.high ?? DEFAULT_THINKING_BUDGETS.high;
  return budgets?.[level] ?? DEFAULT_THINKING_BUDGETS[level];
}

/**
 * Thinking switched off, as far as the model permits: Gemini 2.5 Pro cannot go below 128 tokens and
 * Gemini 3 models cannot stop thinking (they take a level instead of a zero budget).
 */
function lowestThinking(modelId: string): ThinkingConfig {
  const id = modelId.toLowerCase();
  if (/gemini-3(\.\d+)?-pro/.test(id)) return { thinkingLevel: "LOW" as ThinkingConfig["thinkingLevel"] };
  if (/gemini-3/.test(id)) return { thinkingLevel: "MINIMAL" as ThinkingConfig["thinkingLevel"] };
  if (/gemini-2\.5-pro/.test(id)) return { thinkingBudget: 128 };
  return { thinkingBudget: 0 };
}
