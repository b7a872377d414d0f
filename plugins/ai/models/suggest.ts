/**
 * "Did you mean ...?" for model and provider names. A typo (`claude-sonet-4`) or a fragment (`opus`)
 * should point the user at the real names instead of a bare "unknown model".
 */

/** Levenshtein distance: the fewest single-character edits that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidates closest to `query`, best first, at most `limit`. A candidate qualifies when it
 * contains the query (or the query contains it), or when its distance is within a third of the longer
 * name (at least 2), so unrelated names are never offered. `keys` gives the strings to compare for
 * each candidate (e.g. its id and its `provider/id`); the best of them counts.
 */
export function closestMatches<T>(
  query: string,
  candidates: readonly T[],
  keys: (candidate: T) => string[],
  limit = 5,
): T[] {
  const q = query.toLowerCase();
  const scored: Array<{ candidate: T; score: number; order: number }> = [];
  candidates.forEach((candidate, order) => {
    let best = Number.POSITIVE_INFINITY;
    for (const key of keys(candidate)) {
      const k = key.toLowerCase();
      if (k.includes(q) || (q.includes(k) && k.length >= 3))
        best = Math.min(best, Math.abs(k.length - q.length) / 1000);
      const distance = editDistance(q, k);
      if (distance <= Math.max(2, Math.floor(Math.max(q.length, k.length) / 3))) best = Math.min(best, distance);
    }
    if (best !== Number.POSITIVE_INFINITY) scored.push({ candidate, score: best, order });
  });
  scored.sort((x, y) => x.score - y.score || x.order - y.order);
  return scored.slice(0, limit).map((s) => s.candidate);
}
