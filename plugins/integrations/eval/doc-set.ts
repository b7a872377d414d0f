/**
 * The `--docs` folder as context: every text file in it, in path order, joined into one Markdown file
 * that each "docs" run passes to pi with `--append-system-prompt <file>`. The doc set then reaches the
 * model in the system prompt on every turn, outside the task folder, so file checks and the fixture are
 * the same for both variants and only the documentation differs.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { SuiteError } from "./suite.js";

/** Folders a doc set never includes. */
const SKIPPED = new Set([".git", "node_modules"]);

/** A doc set read once for the whole eval. */
export interface DocSet {
  folder: string;
  /** Paths relative to the folder, in the order they appear. */
  files: string[];
  /** The text given to the model. */
  text: string;
}

/** Reads the doc set; a missing or empty folder is a SuiteError (bad input). */
export function readDocSet(folder: string): DocSet {
  const root = resolve(folder);
  let isFolder = false;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {
    throw new SuiteError(`--docs ${root}: no such folder`);
  }
  if (!isFolder) throw new SuiteError(`--docs ${root}: give a folder of documentation files`);
  const files = walk(root)
    .map((path) => ({ path: relative(root, path), body: readFileSync(path) }))
    .filter((file) => !file.body.includes(0));
  if (files.length === 0) throw new SuiteError(`--docs ${root}: has no text files`);
  const sections = files.map(
    (file) => `<document path="${file.path}">\n${file.body.toString("utf8").trimEnd()}\n</document>`,
  );
  const text = [
    "# Project documentation",
    "",
    "The documentation below comes with this task. Use it where it applies.",
    "",
    ...sections,
    "",
  ].join("\n");
  return { folder: root, files: files.map((file) => file.path), text };
}

/** Every file under `dir`, sorted, skipping version-control and dependency folders. */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : walk(path);
      return entry.isFile() ? [path] : [];
    });
}
