/**
 * .gitignore lines as rg and fd read them (the `ignore` crate's rules): `#` comments, `!` negation,
 * a leading "/" or any inner "/" anchors the pattern to the file's folder, otherwise it matches at any
 * depth; a trailing "/" matches folders only; `dir/**` matches what is inside a folder, not the folder.
 * The same parser reads `--glob` overrides, which use the same syntax with the opposite meaning.
 */
import { globToRegExp } from "./glob.js";

/** One parsed line. */
export interface IgnoreRule {
  /** Matches a "/"-separated path relative to the folder the rule belongs to. */
  pattern: RegExp;
  /** Written with a leading "!". */
  negated: boolean;
  /** Written with a trailing "/": applies to folders only. */
  dirOnly: boolean;
}

/** Parses one line; undefined for blank lines and comments. */
export function parseIgnoreRule(rawLine: string): IgnoreRule | undefined {
  let line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
  if (line.startsWith("#")) return undefined;
  if (!line.endsWith("\\ ")) line = line.trimEnd();
  if (line === "") return undefined;
  let negated = false;
  if (line.startsWith("!")) {
    negated = true;
    line = line.slice(1);
  } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
    line = line.slice(1);
  }
  let anchored = false;
  if (line.startsWith("/")) {
    anchored = true;
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.length > 1 && line.endsWith("/")) {
    dirOnly = true;
    line = line.slice(0, -1);
  }
  if (line === "") return undefined;
  if (line.includes("/")) anchored = true;
  if (!anchored && !line.startsWith("**/")) line = `**/${line}`;
  if (line.endsWith("/**")) line = `${line}/*`;
  return { pattern: globToRegExp(line), negated, dirOnly };
}

/** Parses a whole .gitignore file; a line that is not a valid glob is skipped, as git skips it. */
export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const line of text.split("\n")) {
    try {
      const rule = parseIgnoreRule(line);
      if (rule !== undefined) rules.push(rule);
    } catch {
      // an invalid pattern ignores nothing
    }
  }
  return rules;
}

/** The last rule matching `path` (relative, "/"-separated): in ignore files the last match decides. */
export function lastMatch(rules: readonly IgnoreRule[], path: string, isDir: boolean): IgnoreRule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.dirOnly && !isDir) continue;
    if (rule.pattern.test(path)) return rule;
  }
  return undefined;
}
