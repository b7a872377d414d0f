/**
 * Markdown to terminal rows, for assistant answers as they stream: headings, paragraphs with bold, italic,
 * inline code and links, lists with hanging indents, block quotes, rules, tables (kept as written) and
 * fenced code blocks with syntax colours. The text is cut into blocks at blank lines (outside fences) and
 * each block's rows are cached, so a streaming answer re-renders only its last, growing block.
 */
import { hyperlink, hyperlinksOn } from "./hyperlinks.js";
import { drawsMermaid, mermaidMode, mermaidRows } from "./mermaid.js";
import { highlightLine } from "./highlight.js";
import { cellWidth, hardWrap, sanitize, truncate, wrapText } from "./text.js";
import type { Theme } from "./theme.js";

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+#.-]*)/;
const CACHE_LIMIT = 4_000;
const blockCache = new Map<string, string[]>();

/** How a message's markdown is drawn: `diagrams` for an answer (mermaid blocks), `streaming` while it streams. */
export interface MarkdownOptions {
  diagrams?: boolean;
  streaming?: boolean;
}

/** Renders markdown `text` into rows of at most `width` cells. */
export function renderMarkdown(text: string, width: number, theme: Theme, options: MarkdownOptions = {}): string[] {
  const rows: string[] = [];
  const blocks = splitBlocks(sanitize(text));
  blocks.forEach((block, index) => {
    if (index > 0) rows.push("");
    const diagram = options.diagrams === true && MERMAID_FENCE.test(block);
    const key = `${theme.name}\u0000${width}\u0000${diagram ? `${mermaidMode()}${options.streaming === true}${hyperlinksOn()}` : ""}\u0000${block}`;
    let lines = blockCache.get(key);
    if (lines === undefined) {
      lines = diagram
        ? renderDiagram(block, width, theme, options.streaming === true)
        : renderBlock(block, width, theme);
      if (blockCache.size >= CACHE_LIMIT) blockCache.clear();
      blockCache.set(key, lines);
    }
    for (const line of lines) rows.push(line);
  });
  return rows;
}

/** Cuts text into blocks at blank lines; a fenced code block (closed or still streaming) is one block. */
export function splitBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join("\n"));
    current = [];
  };
  for (const line of text.split("\n")) {
    if (fence !== undefined) {
      current.push(line);
      if (line.trim().startsWith(fence)) {
        fence = undefined;
        flush();
      }
      continue;
    }
    const open = FENCE.exec(line);
    if (open !== null) {
      flush();
      fence = open[2]!;
      current.push(line);
      continue;
    }
    if (line.trim() === "") flush();
    else current.push(line);
  }
  flush();
  return blocks;
}

const MERMAID_FENCE = /^\s*(?:`{3,}|~{3,})\s*mermaid(?:\s|$)/i;

/** A closed `mermaid` block as its diagram (mermaid.ts), else as the code block, with pi's warning when it has one. */
function renderDiagram(block: string, width: number, theme: Theme, streaming: boolean): string[] {
  const lines = block.split("\n");
  const fence = FENCE.exec(lines[0]!)![2]!;
  const closed = lines.length > 1 && lines[lines.length - 1]!.trim().startsWith(fence);
  if (!closed || !drawsMermaid(streaming)) return renderBlock(block, width, theme);
  const drawn = mermaidRows(lines.slice(1, -1).join("\n"), width, theme, streaming);
  if (drawn.rows !== undefined) return drawn.rows;
  const code = renderBlock(block, width, theme);
  return drawn.warning === undefined ? code : [...code, truncate(drawn.warning, width)];
}

function renderBlock(block: string, width: number, theme: Theme): string[] {
  const lines = block.split("\n");
  const open = FENCE.exec(lines[0]!);
  if (open !== null) return renderCode(lines, open[3] ?? "", open[2]!, width, theme);
  const rows: string[] = [];
  let paragraph: string[] = [];
  /** The list item being read: its text goes on over the indented lines that follow it. */
  let item: { indent: string; marker: string; text: string } | undefined;
  const flushItem = (): void => {
    if (item === undefined) return;
    const { indent, marker } = item;
    const hang = " ".repeat(cellWidth(`${indent}${marker} `));
    const body = wrapText(inline(item.text, theme), Math.max(1, width - hang.length));
    body.forEach((row, i) => {
      rows.push(i === 0 ? `${indent}${theme.fg("mdListBullet", marker)} ${row}` : hang + row);
    });
    item = undefined;
  };
  const flushParagraph = (): void => {
    flushItem();
    if (paragraph.length === 0) return;
    for (const row of wrapText(inline(paragraph.join(" "), theme), width)) rows.push(row);
    paragraph = [];
  };
  for (const line of lines) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (heading !== null) {
      flushParagraph();
      const text = heading[1]!.length <= 2 ? theme.bold(theme.underline(heading[2]!)) : theme.bold(heading[2]!);
      for (const row of wrapText(theme.fg("mdHeading", text), width)) rows.push(row);
    } else if (/^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      flushParagraph();
      rows.push(theme.fg("mdHr", "─".repeat(Math.max(1, width))));
    } else if (bullet !== null) {
      flushParagraph();
      const marker = /\d/.test(bullet[2]!) ? bullet[2]! : "•";
      item = { indent: " ".repeat(Math.min(bullet[1]!.length, 8)), marker, text: bullet[3]! };
    } else if (/^>/.test(line)) {
      flushParagraph();
      const body = wrapText(
        theme.italic(theme.fg("mdQuote", inline(line.replace(/^>\s?/, ""), theme))),
        Math.max(1, width - 2),
      );
      for (const row of body) rows.push(theme.fg("mdQuoteBorder", "│ ") + row);
    } else if (/^\s*\|/.test(line)) {
      flushParagraph();
      rows.push(truncate(line, width));
    } else if (item !== undefined && /^\s+\S/.test(line)) {
      // A continuation of the list item: one text, wrapped under its marker.
      item.text += ` ${line.trim()}`;
    } else if (/^\s{2,}\S/.test(line) && paragraph.length === 0 && rows.length > 0) {
      for (const row of wrapText(inline(line.trim(), theme), Math.max(1, width - 2))) rows.push(`  ${row}`);
    } else {
      flushItem();
      paragraph.push(line.trim());
    }
  }
  flushParagraph();
  return rows;
}

function renderCode(lines: string[], language: string, fence: string, width: number, theme: Theme): string[] {
  const rows: string[] = [theme.fg("mdCodeBlockBorder", truncate(fence + language, width))];
  const closed = lines.length > 1 && lines[lines.length - 1]!.trim().startsWith(fence);
  const body = lines.slice(1, closed ? -1 : undefined);
  for (const line of body) {
    for (const piece of hardWrap(line, Math.max(1, width - 2))) rows.push(`  ${highlightLine(piece, language, theme)}`);
  }
  if (closed) rows.push(theme.fg("mdCodeBlockBorder", fence));
  return rows;
}

/**
 * A link as pi draws it: the underlined text, an OSC 8 hyperlink when the terminal takes them, else the
 * URL in parentheses after text that differs from it (a bare URL or `mailto:` address shows once).
 */
function link(label: string, url: string, theme: Theme): string {
  const styled = theme.underline(theme.fg("mdLink", label));
  if (hyperlinksOn()) return hyperlink(styled, url);
  const plainUrl = url.startsWith("mailto:") ? url.slice(7) : url;
  return label === url || label === plainUrl ? styled : styled + theme.fg("mdLinkUrl", ` (${url})`);
}

/** Inline markdown: `code`, **bold**, *italic* / _italic_, [text](url). Unclosed marks stay as typed. */
export function inline(text: string, theme: Theme): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return theme.fg("mdCode", part.slice(1, -1));
      return part
        .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_m, a: string | undefined, b: string | undefined) =>
          theme.bold(a ?? b ?? ""),
        )
        .replace(
          /(^|[^\w*])\*([^*\s][^*]*)\*(?!\w)|(^|[^\w])_([^_\s][^_]*)_(?!\w)/g,
          (_m, p1: string | undefined, a: string | undefined, p2: string | undefined, b: string | undefined) =>
            (p1 ?? p2 ?? "") + theme.italic(a ?? b ?? ""),
        )
        .replace(
          /\[([^\]]+)\]\(([^)\s]+)\)|\b(https?:\/\/[^\s<>()[\]\x1b]*[^\s<>()[\].,;:!?'"\x1b])/g,
          (_m, label: string | undefined, url: string | undefined, bare: string | undefined) =>
            link(label ?? bare!, url ?? bare!, theme),
        );
    })
    .join("");
}
