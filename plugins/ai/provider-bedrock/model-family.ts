/**
 * What kind of model a Bedrock id names. Bedrock serves many vendors through one API, but thinking,
 * signatures and prompt caching work differently per vendor. The name is checked too, because an
 * application inference profile's ARN does not contain the model's name (models.json can give one).
 */
import type { Model } from "pi-host";

/** The id and name, lower-cased, also with separators turned into dashes ("claude-opus-4-6"). */
function candidates(model: Pick<Model, "id" | "name">): string[] {
  return [model.id, model.name ?? ""].flatMap((value) => {
    const lower = value.toLowerCase();
    return [lower, lower.replace(/[\s_.:]+/g, "-")];
  });
}

function anyIncludes(model: Pick<Model, "id" | "name">, parts: readonly string[]): boolean {
  return candidates(model).some((s) => parts.some((part) => s.includes(part)));
}

/** An Anthropic Claude model: signed reasoning, Anthropic's thinking fields, prompt cache points. */
export function isClaude(model: Pick<Model, "id" | "name">): boolean {
  return anyIncludes(model, ["claude"]);
}

const FIVE = ["opus-5", "sonnet-5", "haiku-5", "fable-5"];

/** Claude models that take `thinking: { type: "adaptive" }` with an effort instead of a token budget. */
export function usesAdaptiveThinking(model: Pick<Model, "id" | "name">): boolean {
  return isClaude(model) && anyIncludes(model, ["opus-4-6", "opus-4-7", "opus-4-8", "sonnet-4-6", ...FIVE]);
}

/** Claude models whose effort scale has "xhigh". */
export function hasXhighEffort(model: Pick<Model, "id" | "name">): boolean {
  return isClaude(model) && anyIncludes(model, ["opus-4-7", "opus-4-8", ...FIVE]);
}

/** Claude models that accept cache points (3.5 Haiku, 3.7 Sonnet, 4.x, 5); AWS_BEDROCK_FORCE_CACHE=1 forces them. */
export function supportsCachePoints(model: Pick<Model, "id" | "name">, env: NodeJS.ProcessEnv): boolean {
  if (!isClaude(model)) return env.AWS_BEDROCK_FORCE_CACHE === "1";
  return anyIncludes(model, [...FIVE, "-4-", "claude-3-7-sonnet", "claude-3-5-haiku"]);
}

/** OpenAI's open-weight models, which take a flat `reasoning_effort`. */
export function isGptOss(model: Pick<Model, "id" | "name">): boolean {
  return anyIncludes(model, ["gpt-oss"]);
}

/** OpenAI GPT models, which take `reasoning: { effort }`. */
export function isGpt(model: Pick<Model, "id" | "name">): boolean {
  return anyIncludes(model, ["gpt-"]);
}
