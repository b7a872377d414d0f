/**
 * pi's edit as one pure step, shared by the local and the remote edit tools: the file's bytes and the
 * model's replacements in, the new bytes (BOM and line-ending style kept) and pi's numbered diff out,
 * with the tool's description, guidelines and one-line messages, so both tools answer alike.
 */
import { applyEdits, type TextEdit } from "./apply-edits.js";
import { renderLineDiff } from "./line-diff.js";
import { detectLineEnding, normalizeToLF, restoreLineEndings, stripBom } from "./line-endings.js";

/** pi's edit details: the numbered diff and where the first change is in the new file. */
export interface EditToolDetails {
  diff: string;
  firstChangedLine?: number;
}

/** pi's edit description, shown to the model. */
export const EDIT_DESCRIPTION =
  "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. " +
  "If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. " +
  "Do not include large unchanged regions just to connect distant changes.";

/** pi's edit guidelines for the system prompt. */
export const EDIT_GUIDELINES = [
  "Use edit for precise changes (edits[].oldText must match exactly)",
  "When changing multiple separate locations in one file, use one edit call with multiple entries in edits[] instead of multiple edit calls",
  "Each edits[].oldText is matched against the original file, not after earlier edits are applied. Do not emit overlapping or nested edits. Merge nearby changes into one edit.",
  "Keep edits[].oldText as small as possible while still being unique in the file. Do not pad with large unchanged regions.",
];

/** Why a file cannot be edited, as the edit tools word it. */
export type EditRefusal = "not-found" | "permission" | "directory" | "binary";

/** The one line for a file that cannot be edited. */
export function editRefusal(path: string, why: EditRefusal): Error {
  const reason = {
    "not-found": "File not found.",
    permission: "Permission denied.",
    directory: "It is a directory.",
    binary: "It is a binary file.",
  }[why];
  return new Error(`Could not edit file: ${path}. ${reason}`);
}

/** The one line for a path that is a FIFO, socket or device: edit changes regular files only. */
export function editNotRegular(path: string, kind: string): string {
  return `Could not edit file: ${path}. It is ${kind}, not a regular file.`;
}

/** The edited file: its new text (to write back) and what the result reports. */
export interface EditedText {
  content: string;
  details: EditToolDetails;
}

/** Applies `edits` to a file's bytes (refused when binary); throws pi's one-line errors on a mismatch. */
export function editFileText(bytes: Buffer, edits: TextEdit[], path: string): EditedText {
  if (bytes.includes(0)) throw editRefusal(path, "binary");
  const { bom, text } = stripBom(bytes.toString("utf-8"));
  const lineEnding = detectLineEnding(text);
  const original = normalizeToLF(text);
  const newContent = applyEdits(original, edits, path);
  const { diff, firstChangedLine } = renderLineDiff(original, newContent);
  return { content: bom + restoreLineEndings(newContent, lineEnding), details: { diff, firstChangedLine } };
}

/** pi's summary line after a successful edit. */
export function editSuccessText(count: number, path: string): string {
  return `Successfully replaced ${count} block(s) in ${path}.`;
}
