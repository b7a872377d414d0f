/**
 * Thinking on Bedrock goes in `additionalModelRequestFields`, in each vendor's own fields: Claude's
 * `thinking` (adaptive with an effort on newer models, else a token budget that must fit under
 * maxTokens), OpenAI GPT's `reasoning.effort`, gpt-oss's `reasoning_effort`. Other models get none.
 */
import type { Model, StreamOptions, ThinkingLevel } from "pi-host";
import { hasXhighEffort, isClaude, isGpt, isGptOss, usesAdaptiveThinking } from "./model-family.js";

/** Default Claude budgets in tokens; xhigh uses high's. */
const BUDGETS = { minimal: 1024, low: 2048, medium: 8192, high: 16384 } as const;

/** Room left for the answer itself when a budget is squeezed under maxTokens. */
const ANSWER_ROOM = 1024;

/** The thinking fields and the maxTokens to send with them. */
export interface ThinkingFields {
  fields?: Record<string, unknown>;
  maxTokens?: number;
}

/** Thinking fields for `level` on `model`; `maxTokens` is the cap the request would otherwise send. */
export function thinkingFields(model: Model, options: StreamOptions, maxTokens: number | undefined): ThinkingFields {
  const level = options.reasoning;
  if (level === undefined || level === "off" || !model.reasoning) return { maxTokens };
  if (isClaude(model)) {
    const display = isGovCloud(model) ? {} : { display: "summarized" };
    if (usesAdaptiveThinking(model))
      return {
        fields: { thinking: { type: "adaptive", ...display }, output_config: { effort: claudeEffort(model, level) } },
        maxTokens,
      };
    const wanted = level === "xhigh" ? (options.thinkingBudgets?.xhigh ?? options.thinkingBudgets?.high) : undefined;
    const budgetLevel = level === "xhigh" ? "high" : level;
    const budget = wanted ?? options.thinkingBudgets?.[budgetLevel] ?? BUDGETS[budgetLevel];
    // Claude requires maxTokens > budget_tokens: grow the cap within the model's, else shrink the budget.
    const cap = Math.min(Math.max(maxTokens ?? model.maxTokens, budget + ANSWER_ROOM), model.maxTokens);
    const fitted = Math.max(1024, Math.min(budget, cap - ANSWER_ROOM));
    return {
      fields: {
        thinking: { type: "enabled", budget_tokens: fitted, ...display },
        anthropic_beta: ["interleaved-thinking-2025-05-14"],
      },
      maxTokens: cap,
    };
  }
  if (isGptOss(model))
    return { fields: { reasoning_effort: level === "xhigh" ? "high" : plainEffort(level) }, maxTokens };
  if (isGpt(model))
    return { fields: { reasoning: { effort: level === "xhigh" ? "xhigh" : plainEffort(level) } }, maxTokens };
  return { maxTokens };
}

function plainEffort(level: Exclude<ThinkingLevel, "off" | "xhigh">): "low" | "medium" | "high" {
  return level === "minimal" ? "low" : level;
}

function claudeEffort(model: Model, level: Exclude<ThinkingLevel, "off">): string {
  if (level === "xhigh") return hasXhighEffort(model) ? "xhigh" : "high";
  return plainEffort(level);
}

/** GovCloud's Converse schema rejects Claude's `thinking.display`. */
function isGovCloud(model: Model): boolean {
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "";
  const id = model.id.toLowerCase();
  return region.startsWith("us-gov-") || id.startsWith("us-gov.") || id.startsWith("arn:aws-us-gov:");
}
