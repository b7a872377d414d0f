/**
 * How settings layers combine (defaults, then global, then project): plain objects merge key by key at
 * every depth; arrays, scalars and null replace. So a project can change `compaction.reserveTokens`
 * without restating `compaction.enabled`, and a project's `packages` list is the list, not an addition.
 * One exception: named entries that describe a command to run (`mcpServers`) replace each other whole,
 * so a project entry named like a global one never inherits the global entry's `env` secrets or args.
 */

/** Keys whose value is an object of named entries that replace each other whole between layers. */
export const ENTRY_REPLACED_KEYS: ReadonlySet<string> = new Set(["mcpServers"]);

/** Whether a value is a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `over` laid on `base`; neither input is modified, and the result shares no objects with them. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = result[key];
    if (ENTRY_REPLACED_KEYS.has(key) && isPlainObject(value) && isPlainObject(current))
      result[key] = { ...current, ...structuredClone(value) };
    else
      result[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : structuredClone(value);
  }
  return result;
}
