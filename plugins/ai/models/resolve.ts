/**
 * `--model` lookup with pi 1.6's rules: an exact id (any case) or `provider/id`; else a model whose
 * name is the text; else a fuzzy match, a model whose id or name contains the text, preferring aliases
 * (`claude-sonnet-4-5`) over dated ids (`claude-sonnet-4-5-20250929`) and then the latest id; then an
 * optional `:thinking` suffix. When several providers offer the match, the ones with a key decide, so
 * `--model sonnet` with ANTHROPIC_API_KEY set picks Anthropic's newest Sonnet.
 */
import type { Model, ResolvedModel, ThinkingLevel } from "pi-host";
import { closestMatches } from "./suggest.js";

/** A lookup that found nothing (or too much); the message is one line with the closest names. */
export class UnknownModelError extends Error {
  constructor(
    message: string,
    readonly suggestions: string[],
  ) {
    super(message);
    this.name = "UnknownModelError";
  }
}

/** The thinking levels a `:suffix` may name. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** Whether a provider has a key (flag, auth.json, models.json or environment), which breaks ties. */
export type Usable = (provider: string) => boolean;

type Found = { model: Model } | { ambiguous: Model[] } | undefined;

/** Resolves `reference` among `models`; throws UnknownModelError or a one-line Error. */
export function resolveReference(
  reference: string,
  provider: string | undefined,
  models: readonly Model[],
  usable: Usable,
): ResolvedModel {
  const ref = reference.trim();
  if (provider !== undefined && !models.some((m) => m.provider === provider)) throw unknownProvider(provider, models);
  if (ref === "") throw new Error(`empty model reference; give provider/id[:thinking] or a model id`);
  const pool = provider === undefined ? models : models.filter((m) => m.provider === provider);
  const whole = settle(ref, findText(ref, pool, usable));
  if (whole !== undefined) return { model: whole };
  const colon = ref.lastIndexOf(":");
  if (colon > 0) {
    const base = ref.slice(0, colon);
    const model = settle(base, findText(base, pool, usable));
    const level = ref.slice(colon + 1);
    if (model !== undefined) {
      // pi 1.6.0's `max`: no provider here takes more than `xhigh`, so it asks for that (as `--thinking max`).
      if (level === "max") return { model, thinking: "xhigh" };
      if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
        throw new Error(`unknown thinking level "${level}" in "${ref}"; use one of ${THINKING_LEVELS.join(", ")}, max`);
      }
      return { model, thinking: level as ThinkingLevel };
    }
  }
  const slash = ref.indexOf("/");
  if (provider === undefined && slash > 0 && providerPrefix(ref, pool) === undefined) {
    const named = ref.slice(0, slash);
    if (!models.some((m) => m.id.toLowerCase().startsWith(`${named.toLowerCase()}/`)))
      throw unknownProvider(named, models);
  }
  throw unknownModel(ref, provider, pool);
}

/** The model, or a thrown "say which" when several providers tie; undefined when nothing matched. */
function settle(ref: string, found: Found): Model | undefined {
  if (found === undefined) return undefined;
  if ("model" in found) return found.model;
  const refs = found.ambiguous.map(reference);
  throw new UnknownModelError(
    `model "${ref}" is offered by several providers (${refs.join(", ")}); say which with provider/id or --provider`,
    refs,
  );
}

function findText(text: string, pool: readonly Model[], usable: Usable): Found {
  const lower = text.toLowerCase();
  // provider/id: the named provider's own id first, then its fuzzy matches.
  const split = providerPrefix(text, pool);
  let named: Model | undefined;
  if (split !== undefined) {
    const own = pool.filter((m) => m.provider === split.provider);
    const rest = split.rest.toLowerCase();
    named = own.find((m) => m.id.toLowerCase() === rest) ?? best(fuzzy(rest, own));
  }
  const raw = pool.filter((m) => m.id.toLowerCase() === lower && m !== named);
  const exact = pick(named !== undefined ? [named, ...raw] : raw, usable, named);
  if (exact !== undefined) return exact;
  const byName = pool.filter((m) => m.name.toLowerCase() === lower);
  const name = pick(byName, usable, undefined);
  if (name !== undefined) return name;
  const matches = fuzzy(lower, pool);
  if (matches.length === 0) return undefined;
  const several = new Set(matches.map((m) => m.provider)).size > 1;
  const withKeys = several ? matches.filter((m) => usable(m.provider)) : [];
  const candidates = withKeys.length > 0 ? withKeys : matches;
  const top = best(candidates)!;
  const tied = candidates.filter((m) => m.id === top.id);
  return new Set(tied.map((m) => m.provider)).size === 1 ? { model: top } : { ambiguous: tied };
}

/** Among exact matches: one provider wins; else the named one with a key; else the only one with a key. */
function pick(candidates: Model[], usable: Usable, named: Model | undefined): Found {
  if (candidates.length === 0) return undefined;
  if (new Set(candidates.map((m) => m.provider)).size === 1) return { model: candidates[0]! };
  if (named !== undefined && usable(named.provider)) return { model: named };
  const others = candidates.filter((m) => m !== named && usable(m.provider));
  if (others.length === 1) return { model: others[0]! };
  if (others.length === 0 && named !== undefined) return { model: named };
  return { ambiguous: others.length > 0 ? others : candidates };
}

/** The longest provider id that `text` starts with, followed by `/` and a model part. */
function providerPrefix(text: string, pool: readonly Model[]): { provider: string; rest: string } | undefined {
  const lower = text.toLowerCase();
  let found: { provider: string; rest: string } | undefined;
  for (const provider of new Set(pool.map((m) => m.provider))) {
    if (found !== undefined && found.provider.length >= provider.length) continue;
    const prefix = `${provider.toLowerCase()}/`;
    if (lower.startsWith(prefix) && text.length > prefix.length) found = { provider, rest: text.slice(prefix.length) };
  }
  return found;
}

function fuzzy(lower: string, models: readonly Model[]): Model[] {
  return models.filter((m) => m.id.toLowerCase().includes(lower) || m.name.toLowerCase().includes(lower));
}

/** Aliases over dated versions (`-20250929`), then the greatest id: the newest model of a family. */
function best(matches: readonly Model[]): Model | undefined {
  const aliases = matches.filter((m) => m.id.endsWith("-latest") || !/-\d{8}$/.test(m.id));
  const pool = aliases.length > 0 ? aliases : [...matches];
  return [...pool].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))[0];
}

function unknownProvider(name: string, models: readonly Model[]): UnknownModelError {
  const providers = [...new Set(models.map((m) => m.provider))];
  const close = closestMatches(name, providers, (p) => [p]);
  const hint = close.length > 0 ? `did you mean ${close.join(", ")}?` : `known providers: ${providers.join(", ")}`;
  return new UnknownModelError(`unknown provider "${name}": ${hint}`, close);
}

function unknownModel(ref: string, provider: string | undefined, scope: readonly Model[]): UnknownModelError {
  const close = closestMatches(ref, scope, (m) => [m.id, reference(m), m.name]).map(reference);
  const what = provider === undefined ? `unknown model "${ref}"` : `unknown model "${ref}" for provider "${provider}"`;
  const hint = close.length > 0 ? `: did you mean ${close.join(", ")}?` : `; run "pi --list-models" to see the models`;
  return new UnknownModelError(what + hint, close);
}

/** `provider/id`, the way users write a model. */
export function reference(model: Pick<Model, "provider" | "id">): string {
  return `${model.provider}/${model.id}`;
}
