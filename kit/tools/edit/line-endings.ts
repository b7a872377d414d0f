/**
 * Edits match in a plain form (LF endings, no BOM) because a model never sends "\r" or an invisible
 * BOM in oldText; these helpers take a file apart into that form and put its BOM and its line-ending
 * style back afterwards, so an edit never changes either.
 */

/** A file's text split into its optional UTF-8 BOM and the rest. */
export function stripBom(raw: string): { bom: string; text: string } {
  return raw.startsWith("\uFEFF") ? { bom: "\uFEFF", text: raw.slice(1) } : { bom: "", text: raw };
}

/** The file's line-ending style, judged by its first line break ("\n" when it has none). */
export function detectLineEnding(text: string): "\r\n" | "\n" {
  const firstBreak = text.indexOf("\n");
  return firstBreak > 0 && text[firstBreak - 1] === "\r" ? "\r\n" : "\n";
}

/** The text with every CRLF and lone CR turned into LF. */
export function normalizeToLF(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** LF text written back in the file's own line-ending style. */
export function restoreLineEndings(text: string, ending: "\r\n" | "\n"): string {
  return ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
}
