/**
 * The rg invocation keeps memory bounded and ends even when its output does not: an event longer than
 * the per-line bound is skipped (the matches around it still count), and endless output without a
 * newline stops the search at the total bound. A stand-in `rg` script plays the misbehaving output, so
 * this runs on machines without ripgrep too.
 */
import { chmodSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { searchWithRipgrep } from "../../../plugins/tools/tool-grep/ripgrep-search.js";
import type { GrepQuery } from "../../../kit/tools/grep-types.js";

const BOUND_MS = 10_000;
const SMALL_LIMITS = { maxEventBytes: 1024 * 1024, maxOutputBytes: 8 * 1024 * 1024 };

/** A fake rg that runs `body` as a shell script, in a fresh folder that is also the searched folder. */
function fakeRipgrep(body: string): { path: string; folder: string } {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-grep-fake-rg-")));
  const path = join(folder, "rg");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return { path, folder };
}

function query(folder: string): GrepQuery {
  return {
    searchPath: folder,
    isDirectory: true,
    pattern: "needle",
    ignoreCase: false,
    literal: false,
    glob: undefined,
    maxMatches: 101,
    signal: undefined,
  };
}

function withinBound<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`rg search hung for ${BOUND_MS} ms`)), BOUND_MS)),
  );
  return Promise.race([call, hung]).finally(() => clearTimeout(timer));
}

const matchEvent = (path: string, line: number, text: string): string =>
  JSON.stringify({ type: "match", data: { path: { text: path }, lines: { text: `${text}\n` }, line_number: line } });

describe("rg output bounds", () => {
  it("skips an event longer than the per-line bound and keeps the matches around it", async () => {
    const { path, folder } = fakeRipgrep(
      `printf '%s\\n' '${matchEvent("/p/a.txt", 1, "needle before")}'\n` +
        `head -c 3000000 /dev/zero | tr '\\0' x\nprintf '\\n'\n` +
        `printf '%s\\n' '${matchEvent("/p/b.txt", 2, "needle after")}'`,
    );
    const matches = await withinBound(searchWithRipgrep({ path, noRequireGit: true }, query(folder), SMALL_LIMITS));
    expect(matches).toEqual([
      { path: "/p/a.txt", lineNumber: 1, lineText: "needle before" },
      { path: "/p/b.txt", lineNumber: 2, lineText: "needle after" },
    ]);
  });

  it("stops at the total bound when the output never ends and has no newline", async () => {
    const { path, folder } = fakeRipgrep(
      `printf '%s\\n' '${matchEvent("/p/a.txt", 1, "needle")}'\nexec tr '\\0' x < /dev/zero`,
    );
    const matches = await withinBound(searchWithRipgrep({ path, noRequireGit: true }, query(folder), SMALL_LIMITS));
    expect(matches).toEqual([{ path: "/p/a.txt", lineNumber: 1, lineText: "needle" }]);
  });
});
