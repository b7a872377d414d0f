/**
 * A project tree that exercises every .gitignore rule the search tools must honour: root and nested
 * .gitignore files, a parent folder's .gitignore, `*`, `**`, a leading "/", a trailing "/", negation,
 * hidden files, a .git/ folder, a binary file, CRLF lines and an over-long line.
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

/** The repository root (holds .git/ and a .gitignore) and the project folder searched inside it. */
export function grepFixture(): { repo: string; project: string } {
  const repo = realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-grep-")));
  writeTree(repo, {
    ".git/HEAD": "needle in git internals\n",
    ".gitignore": "*.skip\n",
    "outside.txt": "needle outside the project\n",
    "project/.gitignore": "# build output\n*.log\n/build/\nsecret*\n!secret-ok.txt\ndocs/**/draft.md\n",
    "project/.hidden/note.txt": "needle in a hidden folder\n",
    "project/a.txt": "needle one\nnothing here\nNeedle two\n",
    "project/a-b.txt": "a needle with a dash\n",
    "project/app.log": "needle in a log\n",
    "project/bin.dat": "needle\u0000binary\n",
    "project/build/out.txt": "needle in build\n",
    "project/crlf.txt": "first\r\nneedle crlf\r\n",
    "project/docs/draft.md": "needle draft at top\n",
    "project/docs/readme.md": "needle in docs\n",
    "project/docs/x/y/draft.md": "needle deep draft\n",
    "project/long.txt": `needle ${"x".repeat(600)}\n`,
    "project/notes.skip": "needle skipped by the parent .gitignore\n",
    "project/secret-ok.txt": "needle re-included\n",
    "project/secret.txt": "needle secret\n",
    "project/src/.gitignore": "generated/\n*.tmp\n!keep.tmp\n",
    "project/src/deep/util.spec.ts": "describe('needle', () => {});\n",
    "project/src/generated/gen.ts": "export const needle = 'generated';\n",
    "project/src/keep.tmp": "needle kept tmp\n",
    "project/src/lib/generated": "needle in a file named generated\n",
    "project/src/main.ts": "const needle = 1;\nconst a.c = 2;\nconst abc = 3;\n",
    "project/src/x.tmp": "needle tmp\n",
    "project/sub/build/keep.txt": "needle in a nested build folder\n",
  });
  return { repo, project: join(repo, "project") };
}
