/**
 * The built-in tools' shared words and pure steps: what each tool takes, says and answers, with no file
 * system or process of its own, so the local tools and the remote ones (over SSH, in a container) give
 * the model the same schemas, limits, notes and errors.
 */
export * from "./read-output.js";
export * from "./write-output.js";
export * from "./ls-output.js";
export * from "./find-pattern.js";
export * from "./find-output.js";
export * from "./grep-types.js";
export * from "./grep-output.js";
export * from "./grep-format.js";
export * from "./edit/apply-edits.js";
export * from "./edit/fuzzy-text.js";
export * from "./edit/line-endings.js";
export * from "./edit/line-diff.js";
export * from "./edit/edit-arguments.js";
export * from "./edit/edit-text.js";
export * from "./bash/bash-output.js";
export * from "./bash/tail-output.js";
export * from "./bash/spill-files.js";
export * from "./bash/throttled-updates.js";
export * from "./bash/timeout.js";
