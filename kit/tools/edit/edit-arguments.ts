/**
 * pi 0.73's edit parameters: a path and an `edits` array of { oldText, newText }. Older prompts and
 * some models still send one top-level oldText/newText pair, or `edits` as a JSON string; those are
 * repaired into the array form before validation, as pi does.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { TextEdit } from "./apply-edits.js";

/** One targeted replacement. */
const ReplaceEdit = Type.Object(
  {
    oldText: Type.String({
      description:
        "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
    }),
    newText: Type.String({ description: "Replacement text for this targeted edit." }),
  },
  { additionalProperties: false },
);

/** pi's edit parameters, names and meanings unchanged. */
export const EditParameters = Type.Object(
  {
    path: Type.String({ description: "Path to the file to edit (relative or absolute)" }),
    edits: Type.Array(ReplaceEdit, {
      description:
        "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
    }),
  },
  { additionalProperties: false },
);

/** The arguments of one edit call. */
export type EditParams = Static<typeof EditParameters>;

/** Turns the legacy single-pair form and a stringified `edits` array into pi's current shape. */
export function prepareEditArguments(input: unknown): unknown {
  if (input === null || typeof input !== "object") return input;
  const args = { ...(input as Record<string, unknown>) };
  if (typeof args.edits === "string") {
    try {
      const parsed: unknown = JSON.parse(args.edits);
      if (Array.isArray(parsed)) args.edits = parsed;
    } catch {
      // Not JSON: left as is, so validation reports the bad `edits`.
    }
  }
  if (typeof args.oldText !== "string" || typeof args.newText !== "string") return args;
  const { oldText, newText, ...rest } = args;
  const edits = Array.isArray(rest.edits) ? [...rest.edits] : [];
  edits.push({ oldText, newText });
  return { ...rest, edits };
}

/** The path and edits of a call, or a one-line error saying what is missing. */
export function readEditArguments(input: unknown): { path: string; edits: TextEdit[] } {
  const args = prepareEditArguments(input) as Partial<Record<string, unknown>> | undefined;
  if (typeof args?.path !== "string" || args.path === "")
    throw new Error("Edit tool input is invalid. path must be a non-empty string.");
  const edits = args.edits;
  if (!Array.isArray(edits) || edits.length === 0) {
    throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
  }
  edits.forEach((edit, index) => {
    if (typeof edit?.oldText !== "string" || typeof edit?.newText !== "string") {
      throw new Error(`Edit tool input is invalid. edits[${index}] needs string oldText and newText.`);
    }
  });
  return { path: args.path, edits: edits as TextEdit[] };
}
