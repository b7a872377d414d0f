/**
 * The `--docs` folder and how it reaches a "docs" run. Every text file in it, in path order, is read
 * once. As `context` (the default) they are joined into one Markdown file passed to pi with
 * `--append-system-prompt <file>`, so the doc set is in the system prompt on every turn. As `skill` they
 * are copied into a skill folder (`project-docs/SKILL.md` indexing them) passed with `--skill <folder>`,
 * so the model sees only the skill's description and reads the documents when it decides to. Either
 * way the docs live outside the task folder: file checks and the fixture are the same for both
 * variants, and only the documentation differs.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { SuiteError } from "./suite.js";

/** How the doc set reaches the model. */
export type DocsAs = "context" | "skill";

/** The ways `--docs-as` accepts. */
export const DOCS_AS: readonly DocsAs[] = ["context", "skill"];

/** The skill's name (and folder name) in `skill` mode. */
export const DOCS_SKILL = "project-docs";

/** Folders a doc set never includes. */
const SKIPPED = new Set([".git", "node_modules"]);

/** A doc set read once for the whole eval. */
export interface DocSet {
  folder: string;
  /** Paths relative to the folder, in the order they appear. */
  files: string[];
  /** Each file's text, by the same index. */
  bodies: string[];
  /** The whole set as one Markdown text (the `context` mode's file). */
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
  return {
    folder: root,
    files: files.map((file) => file.path),
    bodies: files.map((file) => file.body.toString("utf8")),
    text,
  };
}

/** Writes the doc set under a run's temp folder `root` (outside its working folder); returns pi's flags. */
export async function placeDocs(docs: DocSet, how: DocsAs, root: string): Promise<string[]> {
  if (how === "context") {
    const file = join(root, "docs.md");
    await writeFile(file, docs.text);
    return ["--append-system-prompt", file];
  }
  const skill = join(root, "skills", DOCS_SKILL);
  for (const [index, path] of docs.files.entries()) {
    const target = join(skill, "docs", path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, docs.bodies[index]!);
  }
  const index = docs.files.map((path) => `- [${path}](docs/${path})`).join("\n");
  const skillText = [
    "---",
    `name: ${DOCS_SKILL}`,
    `description: Documentation of the project this task works on (${docs.files.length} files). ` +
      "Read it before changing or answering questions about the project.",
    "---",
    "",
    "# Project documentation",
    "",
    "Read the documents that apply to the task; paths are relative to this skill's folder.",
    "",
    index,
    "",
  ].join("\n");
  await writeFile(join(skill, "SKILL.md"), skillText);
  return ["--skill", skill];
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
