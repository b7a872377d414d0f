/**
 * Applies a batch of text replacements to LF-normalized file content the way pi's edit tool does:
 * every oldText is located in the ORIGINAL content (exact first, else after folding quotes, dashes,
 * spaces and trailing whitespace), must occur exactly once, and must not overlap another edit. A
 * failure throws a one-line error that tells the model what to send instead.
 */
import { foldForMatch, occurrences, originalRange, type FoldedText } from "./fuzzy-text.js";
import { normalizeToLF } from "./line-endings.js";

/** One replacement, as the model sends it. */
export interface TextEdit {
  oldText: string;
  newText: string;
}

/** Where one edit landed in the original content. */
interface LocatedEdit {
  index: number;
  start: number;
  end: number;
  newText: string;
}

/** Applies `edits` to `content` (LF line endings) and returns the new content; `path` only names the file in errors. */
export function applyEdits(content: string, edits: TextEdit[], path: string): string {
  const normalized = edits.map((edit) => ({
    oldText: normalizeToLF(edit.oldText),
    newText: normalizeToLF(edit.newText),
  }));
  let folded: FoldedText | undefined;
  const foldedContent = () => (folded ??= foldForMatch(content));

  const located = normalized.map((edit, index) => locate(content, foldedContent, edit, index, normalized.length, path));
  const ordered = [...located].sort((a, b) => a.start - b.start);
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i - 1].end > ordered[i].start) {
      throw new Error(
        `edits[${ordered[i - 1].index}] and edits[${ordered[i].index}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }

  let newContent = content;
  for (const edit of ordered.reverse()) {
    newContent = newContent.slice(0, edit.start) + edit.newText + newContent.slice(edit.end);
  }
  if (newContent === content) {
    throw new Error(
      edits.length === 1
        ? `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`
        : `No changes made to ${path}. The replacements produced identical content.`,
    );
  }
  return newContent;
}

/** Finds the one place `edit.oldText` names: exact text first, else folded text. */
function locate(
  content: string,
  foldedContent: () => FoldedText,
  edit: TextEdit,
  index: number,
  total: number,
  path: string,
): LocatedEdit {
  const label = total === 1 ? "the text" : `edits[${index}]`;
  if (edit.oldText.length === 0) {
    throw new Error(
      total === 1 ? `oldText must not be empty in ${path}.` : `edits[${index}].oldText must not be empty in ${path}.`,
    );
  }
  const exact = occurrences(content, edit.oldText);
  if (exact.count > 1) throw duplicateError(path, label, total, exact.count);
  if (exact.count === 1) {
    return { index, start: exact.first, end: exact.first + edit.oldText.length, newText: edit.newText };
  }

  const folded = foldedContent();
  const foldedOld = foldForMatch(edit.oldText).text;
  const fuzzy = foldedOld.length === 0 ? { count: 0, first: -1 } : occurrences(folded.text, foldedOld);
  if (fuzzy.count > 1) throw duplicateError(path, label, total, fuzzy.count);
  if (fuzzy.count === 0) {
    throw new Error(
      total === 1
        ? `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`
        : `Could not find edits[${index}] in ${path}. The oldText must match exactly including all whitespace and newlines.`,
    );
  }
  const range = originalRange(folded, content, fuzzy.first, foldedOld.length);
  return { index, ...range, newText: edit.newText };
}

function duplicateError(path: string, label: string, total: number, count: number): Error {
  const rule = total === 1 ? "The text must be unique." : "Each oldText must be unique.";
  return new Error(
    `Found ${count} occurrences of ${label} in ${path}. ${rule} Please provide more context to make it unique.`,
  );
}
