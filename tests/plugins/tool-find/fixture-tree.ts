/**
 * A project tree for find: root, nested and parent .gitignore files with `*`, `**`, a leading "/", a
 * trailing "/" and negation; hidden files; a .git/ folder (which also makes the tree a repository, the
 * only place an fd without --no-require-git applies .gitignore).
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Writes `files` under `root`. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A fresh temp folder. */
export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** The project's files, as a map from path to content (no .git/ and no parent). */
export const PROJECT_FILES: Record<string, string> = {
  ".gitignore": "*.log\n/build/\nsecret*\n!secret-ok.txt\ndocs/**/draft.md\n",
  ".hidden/note.txt": "",
  "README.md": "",
  "a.txt": "",
  "a-b.txt": "",
  "app.log": "",
  "build/out.txt": "",
  "docs/draft.md": "",
  "docs/readme.md": "",
  "docs/x/y/draft.md": "",
  "notes.skip": "",
  "secret-ok.txt": "",
  "secret.txt": "",
  "src/.gitignore": "generated/\n*.tmp\n!keep.tmp\n",
  "src/deep/util.spec.ts": "",
  "src/generated/gen.ts": "",
  "src/keep.tmp": "",
  "src/lib/generated": "",
  "src/main.ts": "",
  "src/x.tmp": "",
  "sub/build/keep.txt": "",
};

/** A repository (with .git/ and a .gitignore ignoring *.skip) holding the project folder. */
export function findFixture(): { repo: string; project: string } {
  const repo = tempDir("pi-tool-find-");
  writeTree(repo, { ".git/HEAD": "", ".gitignore": "*.skip\n", "outside.txt": "" });
  const project = join(repo, "project");
  writeTree(project, PROJECT_FILES);
  return { repo, project };
}
