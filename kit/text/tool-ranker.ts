/**
 * pi 1.6's tool ranker for `tool_search`: Okapi BM25 over a tool's description, schema descriptions and
 * property names, with the tool name and its server as separate, weighted fields. A query that is exactly
 * a tool's name (or its part after a `__`) ranks it first; a tool that matches more query terms ranks
 * above one matching fewer. Ported so the same query loads the same tools as in pi. Shared by MCP's
 * `tool_search` and codemode's `searchTools()`.
 */

/** What the ranker reads of one tool. */
export interface RankedTool {
  name: string;
  description: string;
  parameters: unknown;
  /** The server's name (and description or instructions, when known). */
  namespaceText?: string;
}

const STOP_WORDS = new Set("a an and are as at be by for from in is it of on or that the this to with".split(" "));
/** Made on first non-ASCII text: a word segmenter loads ICU's break data (~1.6 MB resident), which every run would pay at import. */
let segmenter: Intl.Segmenter | undefined;
const NAME_WEIGHT = 3;
const NAMESPACE_WEIGHT = 0.5;
const K1 = 1.2;
const B = 0.75;

function stem(term: string): string {
  if (term.length > 4 && term.endsWith("ies")) return `${term.slice(0, -3)}y`;
  if (term.length > 4 && /(ches|shes|sses|xes|zes)$/.test(term)) return term.slice(0, -2);
  if (term.length > 3 && term.endsWith("s") && !term.endsWith("ss")) return term.slice(0, -1);
  return term;
}

/** Words of a text: identifier boundaries split, lower case, stop words out, naive singular forms. */
export function tokenize(text: string): string[] {
  const normalized = text
    .normalize("NFC")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, " ");
  const words = /^[a-z0-9 ]*$/.test(normalized)
    ? normalized.split(" ")
    : Array.from((segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" })).segment(normalized), (s) =>
        s.isWordLike ? s.segment : "",
      );
  return words.filter((w) => w.length > 0 && !STOP_WORDS.has(w)).map((w) => (/^[a-z0-9]+$/.test(w) ? stem(w) : w));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Descriptions and property names of a schema, recursively (local `$ref`s into `root` once each). */
function schemaText(schema: unknown, root: unknown, parts: string[], seen: Set<unknown>): void {
  if (!isObject(schema)) return;
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/")) {
    let target: unknown = root;
    for (const key of schema.$ref.slice(2).split("/"))
      target = isObject(target) ? target[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    if (isObject(target) && !seen.has(target)) {
      seen.add(target);
      schemaText(target, root, parts, seen);
    }
  }
  if (typeof schema.description === "string") parts.push(schema.description);
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      parts.push(name);
      schemaText(property, root, parts, seen);
    }
  }
  schemaText(schema.items, root, parts, seen);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const variants = schema[key];
    if (Array.isArray(variants)) for (const variant of variants) schemaText(variant, root, parts, seen);
  }
}

function normalizeName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_$]/g, "_");
}

/** The names of the best `limit` matches for `query`, best first; ties keep the tools' order. */
export function rankTools(query: string, tools: readonly RankedTool[], limit: number): string[] {
  const queryTerms = new Set(tokenize(query));
  if (queryTerms.size === 0 || tools.length === 0 || limit <= 0) return [];
  const indexed = tools.map((tool) => {
    const parts = [tool.description];
    schemaText(tool.parameters, tool.parameters, parts, new Set([tool.parameters]));
    const counts = new Map<string, number>();
    for (const term of tokenize(parts.filter((p) => p.trim()).join(" "))) counts.set(term, (counts.get(term) ?? 0) + 1);
    const segments = tool.name.split("__");
    return {
      name: tool.name,
      nameTerms: new Set(tokenize(tool.name)),
      localTerms: [...new Set(tokenize(segments[segments.length - 1] ?? ""))],
      counts,
      length: [...counts.values()].reduce((sum, c) => sum + c, 0),
      namespaceTerms: new Set(tokenize(tool.namespaceText ?? "")),
    };
  });
  const average = indexed.reduce((sum, d) => sum + d.length, 0) / indexed.length || 1;
  const idf = new Map(
    [...queryTerms].map((term) => {
      const frequency = indexed.filter(
        (d) => d.nameTerms.has(term) || d.counts.has(term) || d.namespaceTerms.has(term),
      ).length;
      return [term, Math.log(1 + (indexed.length - frequency + 0.5) / (frequency + 0.5))] as const;
    }),
  );
  const fullNameBonus = [...idf.values()].reduce((sum, v) => sum + v, 0);
  const exactQuery = normalizeName(query);
  const matches: Array<{ name: string; score: number; covered: number; exact: boolean }> = [];
  for (const d of indexed) {
    const norm = K1 * (1 - B + (B * d.length) / average);
    let score = 0;
    let covered = 0;
    for (const term of queryTerms) {
      const count = d.counts.get(term) ?? 0;
      const weight =
        (d.nameTerms.has(term) ? NAME_WEIGHT : 0) +
        (d.namespaceTerms.has(term) ? NAMESPACE_WEIGHT : 0) +
        (count * (K1 + 1)) / (count + norm);
      if (weight > 0) covered++;
      score += (idf.get(term) ?? 0) * weight;
    }
    if (score === 0) continue;
    if (d.localTerms.length > 0 && d.localTerms.every((t) => queryTerms.has(t))) score += fullNameBonus;
    const normalized = normalizeName(d.name);
    const exact = normalized === exactQuery || normalized.endsWith(`__${exactQuery}`);
    matches.push({ name: d.name, score, covered, exact });
  }
  return matches
    .sort((a, b) => Number(b.exact) - Number(a.exact) || b.covered - a.covered || b.score - a.score)
    .slice(0, limit)
    .map((m) => m.name);
}
