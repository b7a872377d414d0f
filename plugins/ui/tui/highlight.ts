/**
 * A small syntax highlighter for code blocks: one regular-expression tokenizer per language family
 * (C-like: TypeScript/JavaScript/Java/C/C++/C#/Go/Rust/Swift/Kotlin; Python; shell; JSON; others get
 * strings, numbers and comments only). One line at a time, so a block streams line by line; a comment or
 * string spanning lines is coloured per line, which is enough to read code in a terminal.
 */
import type { Theme } from "./theme.js";

const C_KEYWORDS =
  "abstract as async await break case catch class const continue debugger default delete do else enum export extends false final finally for fn from func function go if impl implements import in instanceof interface let match mod mut new nil null package private protected public readonly return self static struct super switch this throw throws trait true try type typeof undefined use var void where while yield";
const PY_KEYWORDS =
  "and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return self True try while with yield";
const SH_KEYWORDS =
  "if then else elif fi for while until do done case esac in function return export local echo cd exit set unset source";

const FAMILIES: Record<string, { keywords: Set<string>; comment: RegExp }> = {
  c: { keywords: new Set(C_KEYWORDS.split(" ")), comment: /\/\/.*|\/\*.*?(?:\*\/|$)/y },
  python: { keywords: new Set(PY_KEYWORDS.split(" ")), comment: /#.*/y },
  shell: { keywords: new Set(SH_KEYWORDS.split(" ")), comment: /#.*/y },
  plain: { keywords: new Set(), comment: /(?!)/y },
};

const LANGUAGE_FAMILY: Record<string, string> = {
  ts: "c",
  typescript: "c",
  tsx: "c",
  js: "c",
  javascript: "c",
  jsx: "c",
  mjs: "c",
  java: "c",
  c: "c",
  h: "c",
  cpp: "c",
  "c++": "c",
  cs: "c",
  csharp: "c",
  go: "c",
  rust: "c",
  rs: "c",
  swift: "c",
  kotlin: "c",
  kt: "c",
  scala: "c",
  php: "c",
  dart: "c",
  py: "python",
  python: "python",
  rb: "python",
  ruby: "python",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  shell: "shell",
  console: "shell",
  yaml: "shell",
  yml: "shell",
  toml: "shell",
  json: "plain",
  jsonc: "c",
};

const STRING = /"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?/y;
const NUMBER = /\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:e[+-]?\d+)?)\b/y;
const WORD = /[A-Za-z_$][\w$]*/y;
const PUNCT = /[{}()[\];,.:<>=+\-*/%!&|^~?@]+/y;

/** Colours one line of code in `language` (unknown languages: strings, numbers, comments). */
export function highlightLine(line: string, language: string, theme: Theme): string {
  const family = FAMILIES[LANGUAGE_FAMILY[language.toLowerCase()] ?? "plain"]!;
  let out = "";
  let i = 0;
  const at = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(line);
    return m !== null && m[0] !== "" ? m[0] : undefined;
  };
  while (i < line.length) {
    let token: string | undefined;
    if ((token = at(family.comment)) !== undefined) out += theme.fg("syntaxComment", token);
    else if ((token = at(STRING)) !== undefined) out += theme.fg("syntaxString", token);
    else if ((token = at(NUMBER)) !== undefined) out += theme.fg("syntaxNumber", token);
    else if ((token = at(WORD)) !== undefined) {
      if (family.keywords.has(token)) out += theme.fg("syntaxKeyword", token);
      else if (line[i + token.length] === "(") out += theme.fg("syntaxFunction", token);
      else if (/^[A-Z]/.test(token)) out += theme.fg("syntaxType", token);
      else out += token;
    } else if ((token = at(PUNCT)) !== undefined) out += theme.fg("syntaxPunctuation", token);
    else {
      token = line[i]!;
      out += token;
    }
    i += token.length;
  }
  return out;
}
