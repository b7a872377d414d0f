/**
 * The YAML frontmatter of SKILL.md files and prompt templates (the resources plugin, and pi's
 * `parseFrontmatter` for extensions): a block between a first line `---` and
 * the next line starting with `---`. Only the subset of YAML these files use is read — `key: value`
 * with plain, 'single' or "double" quoted scalars, `|` and `>` block scalars, folded continuation lines,
 * booleans and null, and nested mappings or `- item` lists (kept, not interpreted). Anything else is a
 * FrontmatterError naming the line, so a broken file is skipped with a reason instead of misread.
 * Leniency where YAML is strict and pi users rely on it: a plain value may contain ": ".
 */

/** A document split into its frontmatter fields and its body. */
export interface FrontmatterDocument {
  frontmatter: Record<string, unknown>;
  /** The text after the frontmatter, trimmed; the whole text when there is no frontmatter. */
  body: string;
}

/** Frontmatter that cannot be read; the message says which line and why. */
export class FrontmatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FrontmatterError";
  }
}

/** Splits `content` into frontmatter and body; throws FrontmatterError on malformed frontmatter. */
export function parseFrontmatter(content: string): FrontmatterDocument {
  const text = content.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const firstBreak = text.indexOf("\n");
  const firstLine = firstBreak === -1 ? text : text.slice(0, firstBreak);
  if (firstLine.trimEnd() !== "---") return { frontmatter: {}, body: text };
  const end = text.indexOf("\n---", firstBreak);
  if (end === -1) return { frontmatter: {}, body: text };
  const yaml = text.slice(firstBreak + 1, end);
  const afterClose = text.indexOf("\n", end + 1);
  const body = afterClose === -1 ? "" : text.slice(afterClose + 1).trim();
  // Frontmatter line numbers count from the file's first line, the opening `---`.
  return { frontmatter: parseMapping(yaml.split("\n"), 2), body };
}

/** Parses block-mapping lines; `firstLineNumber` is the file line of lines[0], for messages. */
function parseMapping(lines: string[], firstLineNumber: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const lineNumber = firstLineNumber + i;
    if (isBlankOrComment(line)) {
      i++;
      continue;
    }
    if (/^\s/.test(line)) throw new FrontmatterError(`line ${lineNumber}: unexpected indentation`);
    const match = /^("[^"]*"|'[^']*'|[^\s:#][^:]*?)\s*:(?:[ \t]+(.*))?$/.exec(line);
    if (match === null) throw new FrontmatterError(`line ${lineNumber}: expected "key: value"`);
    const key = unquoteKey(match[1]);
    if (Object.hasOwn(result, key)) throw new FrontmatterError(`line ${lineNumber}: duplicate key "${key}"`);
    const block: string[] = [];
    i++;
    while (i < lines.length && (lines[i].trim() === "" || /^\s/.test(lines[i]))) block.push(lines[i++]);
    result[key] = parseValue((match[2] ?? "").trim(), block, lineNumber);
  }
  return result;
}

/** A value from the rest of its key's line and the indented lines under it (trailing blank lines included). */
function parseValue(inline: string, lines: string[], lineNumber: number): unknown {
  // Trailing blank lines belong to the value only for a keeping (`|+`, `>+`) block scalar.
  if (/^[|>][+-]?[1-9]?[+-]?(\s+#.*)?$/.test(inline))
    return blockScalar(inline, inline.split("#")[0].includes("+") ? lines : withoutTrailingBlanks(lines));
  const block = withoutTrailingBlanks(lines);
  if (inline === "" || inline.startsWith("#")) return block.length === 0 ? null : parseNested(block, lineNumber + 1);
  if (inline.startsWith('"')) return doubleQuoted([inline, ...block.map((l) => l.trim())].join(" "), lineNumber);
  if (inline.startsWith("'")) return singleQuoted([inline, ...block.map((l) => l.trim())].join(" "), lineNumber);
  const folded = [stripComment(inline), ...block.map((l) => stripComment(l.trim()))]
    .filter((part) => part !== "")
    .join(" ");
  return plainScalar(folded);
}

/** An indented block under `key:` — a `- item` list or a nested mapping. */
function parseNested(block: string[], firstLineNumber: number): unknown {
  const indent = Math.min(...block.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length));
  const dedented = block.map((l) => l.slice(indent));
  if (dedented.find((l) => l.trim() !== "")!.startsWith("- ") || dedented.find((l) => l.trim() !== "") === "-") {
    return dedented
      .filter((l) => !isBlankOrComment(l))
      .map((l, n) => {
        if (!l.startsWith("-"))
          throw new FrontmatterError(`line ${firstLineNumber + n}: expected "- item" in the list`);
        return parseValue(l.slice(1).trim(), [], firstLineNumber + n);
      });
  }
  return parseMapping(dedented, firstLineNumber);
}

/** `|` keeps line breaks, `>` folds lines into spaces; `-` strips the final newline, `+` keeps all. */
function blockScalar(header: string, block: string[]): string {
  const nonBlank = block.filter((l) => l.trim() !== "");
  const indent = nonBlank.length === 0 ? 0 : Math.min(...nonBlank.map((l) => l.length - l.trimStart().length));
  const lines = block.map((l) => l.slice(indent));
  let text: string;
  if (header.startsWith("|")) {
    text = lines.join("\n");
  } else {
    text = "";
    for (const line of lines) {
      if (line === "") text += "\n";
      else text += text === "" || text.endsWith("\n") ? line : ` ${line}`;
    }
  }
  const chomping = header.split("#")[0];
  if (chomping.includes("-")) return text;
  if (chomping.includes("+")) return `${text}\n`;
  return text === "" ? "" : `${text.replace(/\n+$/, "")}\n`;
}

function doubleQuoted(text: string, lineNumber: number): string {
  const end = closingQuote(text);
  if (end === -1) throw new FrontmatterError(`line ${lineNumber}: unterminated "double-quoted" value`);
  if (stripComment(text.slice(end + 1).trim()) !== "")
    throw new FrontmatterError(`line ${lineNumber}: unexpected text after the closing quote`);
  try {
    return JSON.parse(text.slice(0, end + 1).replace(/\t/g, "\\t")) as string;
  } catch {
    throw new FrontmatterError(`line ${lineNumber}: invalid escape in "double-quoted" value`);
  }
}

function singleQuoted(text: string, lineNumber: number): string {
  let out = "";
  for (let i = 1; i < text.length; i++) {
    if (text[i] !== "'") {
      out += text[i];
    } else if (text[i + 1] === "'") {
      out += "'";
      i++;
    } else {
      if (stripComment(text.slice(i + 1).trim()) !== "")
        throw new FrontmatterError(`line ${lineNumber}: unexpected text after the closing quote`);
      return out;
    }
  }
  throw new FrontmatterError(`line ${lineNumber}: unterminated 'single-quoted' value`);
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function plainScalar(text: string): unknown {
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^(null|Null|NULL|~)$/.test(text)) return null;
  return text;
}

function unquoteKey(key: string): string {
  if ((key.startsWith('"') && key.endsWith('"')) || (key.startsWith("'") && key.endsWith("'"))) return key.slice(1, -1);
  return key;
}

/** Drops a ` # comment` from a plain value. */
function stripComment(text: string): string {
  if (text.startsWith("#")) return "";
  const at = text.search(/\s#/);
  return (at === -1 ? text : text.slice(0, at)).trimEnd();
}

function withoutTrailingBlanks(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === "") end--;
  return lines.slice(0, end);
}

function isBlankOrComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === "" || trimmed.startsWith("#");
}
