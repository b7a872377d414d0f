/**
 * Dotted keys ("compaction.reserveTokens") name a value inside nested settings objects, so set() can
 * change one nested value and leave its siblings alone.
 */
import { isPlainObject } from "./merge.js";

const FORBIDDEN_SEGMENTS = new Set(["__proto__", "prototype", "constructor"]);

/** Splits and checks a dotted key; throws a one-line error on a malformed one. */
export function keyPath(key: string): string[] {
  const segments = key.split(".");
  if (key === "" || segments.some((s) => s === "")) {
    throw new Error(`invalid settings key "${key}": use a name or a dotted path like "compaction.reserveTokens"`);
  }
  const forbidden = segments.find((s) => FORBIDDEN_SEGMENTS.has(s));
  if (forbidden !== undefined) throw new Error(`invalid settings key "${key}": "${forbidden}" is not allowed as a key`);
  return segments;
}

/**
 * Sets (or, for `undefined`, removes) the value at `path` inside `target`, creating missing objects on
 * the way. Refuses to replace a non-object that sits where an object is needed: that would silently
 * drop the user's value. `file` only names the file in that error.
 */
export function setAtPath(target: Record<string, unknown>, path: string[], value: unknown, file: string): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i];
    const next = node[segment];
    if (next === undefined) {
      if (value === undefined) return;
      node[segment] = {};
    } else if (!isPlainObject(next)) {
      const at = path.slice(0, i + 1).join(".");
      throw new Error(`${file}: cannot set "${path.join(".")}": "${at}" holds ${describe(next)}, not an object`);
    }
    node = node[segment] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
