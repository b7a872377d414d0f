/**
 * What both grep backends take and give, so the tool formats rg's and the pure-Node search's results
 * with one piece of code and tests can compare them line by line.
 */

/** One search, already validated and resolved. */
export interface GrepQuery {
  /** Absolute path of the folder or file to search. */
  searchPath: string;
  isDirectory: boolean;
  pattern: string;
  ignoreCase: boolean;
  literal: boolean;
  /** An rg-style glob filter, relative to the searched folder. */
  glob: string | undefined;
  /** Stop after this many matching lines. */
  maxMatches: number;
  signal: AbortSignal | undefined;
}

/** One matching line. */
export interface GrepMatch {
  /** Absolute path of the file. */
  path: string;
  /** 1-based. */
  lineNumber: number;
  /** The line without its line break. */
  lineText: string;
}
