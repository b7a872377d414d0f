/**
 * How fd (as pi runs it) reads the find pattern, so the pure-Node search matches the same paths: a
 * pattern without "/" is matched against the file name; one with "/" against the whole absolute path
 * (`--full-path`), behind an any-folders prefix ("**" and "/") unless it starts with "/" or already has
 * that prefix; and matching is case-insensitive unless the pattern has an uppercase letter (fd's smart
 * case).
 */
import { globToRegExp } from "../fs/glob.js";

/** A compiled find pattern. */
export interface FindPattern {
  /** What fd receives as its pattern. */
  glob: string;
  /** Match the absolute path instead of the file name. */
  fullPath: boolean;
  /** Tests a candidate: its absolute path or its name, per `fullPath`. */
  matches(absolutePath: string, name: string): boolean;
}

/** Compiles `pattern`; throws a one-line error for an invalid glob. */
export function compileFindPattern(pattern: string): FindPattern {
  const fullPath = pattern.includes("/");
  const glob = fullPath && !pattern.startsWith("/") && !pattern.startsWith("**/") ? `**/${pattern}` : pattern;
  const regex = globToRegExp(glob, { caseInsensitive: pattern === pattern.toLowerCase() });
  return {
    glob,
    fullPath,
    matches: (absolutePath, name) => regex.test(fullPath ? absolutePath : name),
  };
}

/** Orders paths as a sorted depth-first walk lists them: folder by folder, names in byte order. */
export function comparePaths(a: string, b: string): number {
  const left = a.replace(/\/$/, "").split("/");
  const right = b.replace(/\/$/, "").split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}
