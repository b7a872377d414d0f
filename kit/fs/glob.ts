/**
 * Globs in the dialect ripgrep and fd use (Rust's globset with literal separators): `*` and `?` never
 * cross "/", `**` as a whole path component spans folders, `[...]` / `[!...]` classes, `{a,b}`
 * alternatives and backslash escapes. The pure-Node search needs this to match exactly what rg and fd
 * would.
 */

/** Compiles `glob` to an anchored RegExp; throws a one-line error on an unbalanced `{`. */
export function globToRegExp(glob: string, options: { caseInsensitive?: boolean } = {}): RegExp {
  return new RegExp(`^${globToRegexSource(glob)}$`, options.caseInsensitive ? "i" : "");
}

function globToRegexSource(glob: string): string {
  let out = "";
  let braces = 0;
  let i = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1]!);
      i += 2;
    } else if (c === "*") {
      let end = i;
      while (glob[end] === "*") end++;
      const wholeComponent =
        end - i >= 2 && (i === 0 || glob[i - 1] === "/") && (end === glob.length || glob[end] === "/");
      if (!wholeComponent) out += "[^/]*";
      else if (end === glob.length) out += ".*";
      else {
        out += "(?:.*/)?";
        end++; // the "/" after "**" is part of the optional prefix
      }
      i = end;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const parsed = parseClass(glob, i);
      out += parsed.source;
      i = parsed.end;
    } else if (c === "{") {
      out += "(?:";
      braces++;
      i++;
    } else if (c === "," && braces > 0) {
      out += "|";
      i++;
    } else if (c === "}" && braces > 0) {
      out += ")";
      braces--;
      i++;
    } else {
      out += escapeRegex(c);
      i++;
    }
  }
  if (braces > 0) throw new Error(`Invalid glob "${glob}": unclosed "{"`);
  return out;
}

/** A `[...]` class starting at `start`, or a literal "[" when it never closes. */
function parseClass(glob: string, start: number): { source: string; end: number } {
  let i = start + 1;
  const negated = glob[i] === "!" || glob[i] === "^";
  if (negated) i++;
  let body = "";
  let first = true;
  while (i < glob.length && (glob[i] !== "]" || first)) {
    const c = glob[i]!;
    body += c === "\\" || c === "]" || c === "[" || c === "^" ? `\\${c}` : c;
    first = false;
    i++;
  }
  if (i >= glob.length) return { source: "\\[", end: start + 1 };
  return { source: negated ? `[^/${body}]` : `[${body}]`, end: i + 1 };
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
