/**
 * How much a request may think and write. Anthropic's extended thinking takes a token budget that counts
 * against `max_tokens`, so the two are decided together: the budget comes from the thinking level (or the
 * user's `thinkingBudgets`), and `max_tokens` grows to leave room for an answer after the thinking.
 * The newest models deprecate budgets for adaptive thinking, where the level becomes an effort.
 */
import type { Model, StreamOptions, ThinkingBudgets, ThinkingLevel } from "pi-host";

/** Budgets per level when the user configures none; `xhigh` thinks as hard as `high` on this API. */
export const DEFAULT_THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, "off">, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 16384,
};

/** The API refuses a thinking budget below this. */
export const MIN_THINKING_BUDGET = 1024;

/** Room always left for the visible answer when the budget has to shrink to fit the model. */
const MIN_ANSWER_TOKENS = 1024;

/** The output cap used when the caller gives none: the model's own, but not more than this. */
const DEFAULT_MAX_OUTPUT_TOKENS = 32_000;

/**
 * Models on which the API deprecates budget thinking in favour of adaptive thinking (Opus 4.6 and 4.7,
 * Sonnet 4.6, Mythos Preview), matched by id with or without a date suffix or dots for dashes.
 */
const ADAPTIVE_THINKING_MODELS = /(opus-4[-.][67]|sonnet-4[-.]6|mythos)/;

/** The effort an adaptive-thinking model gets per level; like budgets, `xhigh` is `high`. */
export const ADAPTIVE_EFFORT: Readonly<Record<Exclude<ThinkingLevel, "off">, "low" | "medium" | "high">> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "high",
};

/** The thinking part of a request body: a budget, adaptive, or an explicit "no". */
export type ThinkingSetting =
  | { type: "enabled"; budget_tokens: number }
  | { type: "adaptive"; display: "summarized" }
  | { type: "disabled" };

/** What the request sends: `max_tokens`, `thinking` when the model can think, and an effort for adaptive thinking. */
export interface ThinkingPlan {
  maxTokens: number;
  thinking?: ThinkingSetting;
  effort?: "low" | "medium" | "high";
}

/**
 * Decides `max_tokens` and `thinking` for one request. A non-reasoning model gets no `thinking` field; a
 * reasoning model at level `off` (or no level) gets `{type: "disabled"}`, because whether an omitted field
 * means "think" depends on the model. An adaptive-thinking model gets its effort instead of a budget. A
 * budget that cannot fit under `model.maxTokens` with room for an answer shrinks, and when it would fall
 * below the API minimum thinking is disabled instead.
 */
export function planThinking(model: Model, options: StreamOptions): ThinkingPlan {
  const ceiling = model.maxTokens > 0 ? model.maxTokens : DEFAULT_MAX_OUTPUT_TOKENS;
  const baseMaxTokens = Math.min(options.maxTokens ?? Math.min(ceiling, DEFAULT_MAX_OUTPUT_TOKENS), ceiling);
  if (!model.reasoning) return { maxTokens: baseMaxTokens };
  const level = options.reasoning ?? "off";
  if (level === "off") return { maxTokens: baseMaxTokens, thinking: { type: "disabled" } };
  if (usesAdaptiveThinking(model)) {
    // "summarized": without it some of these models return thinking blocks with no text.
    return {
      maxTokens: baseMaxTokens,
      thinking: { type: "adaptive", display: "summarized" },
      effort: ADAPTIVE_EFFORT[level],
    };
  }

  const wanted = thinkingBudget(level, options.thinkingBudgets);
  const maxTokens = Math.min(baseMaxTokens + wanted, ceiling);
  // Only a cap can squeeze the answer; then it keeps at least MIN_ANSWER_TOKENS (or all it asked for, if less).
  const budget = Math.min(wanted, maxTokens - Math.min(baseMaxTokens, MIN_ANSWER_TOKENS));
  if (budget < MIN_THINKING_BUDGET) return { maxTokens: baseMaxTokens, thinking: { type: "disabled" } };
  return { maxTokens, thinking: { type: "enabled", budget_tokens: budget } };
}

/** The budget for a level: the user's number if set, else the default; `xhigh` falls back to `high`. */
export function thinkingBudget(level: Exclude<ThinkingLevel, "off">, overrides: ThinkingBudgets | undefined): number {
  if (level === "xhigh") return overrides?.xhigh ?? thinkingBudget("high", overrides);
  return overrides?.[level] ?? DEFAULT_THINKING_BUDGETS[level];
}

/** Whether `model` takes adaptive thinking (an effort) rather than a token budget. */
export function usesAdaptiveThinking(model: Pick<Model, "id">): boolean {
  return ADAPTIVE_THINKING_MODELS.test(model.id);
}
