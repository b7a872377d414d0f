/**
 * `--models` and the `enabledModels` setting, as pi 1.6.0 reads them: comma-separated patterns, each an
 * exact id, `provider/id`, a fuzzy match or a case-insensitive glob over `provider/id` or the bare id,
 * with an optional `:thinking` suffix. The scope decides which model a new session starts with and
 * which ones Ctrl+P cycles through; a pattern that matches nothing is a warning, never a failure.
 */
import { globToRegExp, type Model, type ModelScope, type ScopedModel, type ThinkingLevel } from "pi-host";
import { reference, resolveReference, THINKING_LEVELS } from "./resolve.js";

/** The scope `patterns` select among `pool` (the models that have a key), in pattern order, each model once. */
export function resolveScope(patterns: readonly string[], pool: readonly Model[]): ModelScope {
  const models: ScopedModel[] = [];
  const warnings: string[] = [];
  const add = (model: Model, thinking: ThinkingLevel | undefined): void => {
    if (!models.some((s) => s.model.provider === model.provider && s.model.id === model.id)) {
      models.push(thinking === undefined ? { model } : { model, thinking });
    }
  };
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (pattern === "") continue;
    const found = isGlob(pattern) ? globMatches(pattern, pool) : referenceMatches(pattern, pool);
    if (found.warning !== undefined) warnings.push(found.warning);
    if (found.models.length === 0 && found.warning === undefined) warnings.push(`no models match pattern "${pattern}"`);
    for (const model of found.models) add(model, found.thinking);
  }
  return { models, warnings };
}

interface Matches {
  models: Model[];
  thinking?: ThinkingLevel;
  warning?: string;
}

/** `*`, `?` or `[` make a glob; an id that is itself in the pool (`model[1m]`) is still taken as the id. */
function isGlob(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/** A glob with an optional `:thinking` suffix, over `provider/id` or the bare id, any case. */
function globMatches(pattern: string, pool: readonly Model[]): Matches {
  const { base, thinking } = splitThinking(pattern);
  const exact = pool.filter((m) => m.id.toLowerCase() === base.toLowerCase() || reference(m) === base);
  if (exact.length > 0) return { models: exact, thinking };
  const glob = globToRegExp(base, { caseInsensitive: true });
  return { models: pool.filter((m) => glob.test(reference(m)) || glob.test(m.id)), thinking };
}

/** An id, `provider/id`, name or fuzzy match (with `:thinking`); a tie between providers adds each, with a warning. */
function referenceMatches(pattern: string, pool: readonly Model[]): Matches {
  try {
    const resolved = resolveReference(pattern, undefined, pool, () => true);
    return { models: [resolved.model], thinking: resolved.thinking };
  } catch (error) {
    const suggestions = (error as { suggestions?: string[] }).suggestions ?? [];
    const tied = pool.filter((m) => suggestions.includes(reference(m)));
    if (/several providers/.test((error as Error).message) && tied.length > 0) {
      const { thinking } = splitThinking(pattern);
      const providers = [...new Set(tied.map((m) => m.provider))].sort().join(", ");
      return {
        models: tied,
        thinking,
        warning: `pattern "${pattern}" matches several providers: ${providers}; use provider/id to choose one`,
      };
    }
    if (/thinking level/.test((error as Error).message)) return { models: [], warning: (error as Error).message };
    return { models: [] };
  }
}

/** `base:level` when the part after the last colon is a thinking level; else the whole pattern. */
function splitThinking(pattern: string): { base: string; thinking?: ThinkingLevel } {
  const colon = pattern.lastIndexOf(":");
  const level = pattern.slice(colon + 1);
  if (colon > 0 && level === "max") return { base: pattern.slice(0, colon), thinking: "xhigh" };
  if (colon > 0 && (THINKING_LEVELS as readonly string[]).includes(level)) {
    return { base: pattern.slice(0, colon), thinking: level as ThinkingLevel };
  }
  return { base: pattern };
}
