/**
 * The type checker guards calls across contracts: tsc run on tests/types/must-fail/ alone must report
 * exactly the errors its `expect-error: TSxxxx` comments name, on their lines, and nothing else. (The
 * must-compile file is part of the main typecheck.)
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const folder = fileURLToPath(new URL("./must-fail/", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** `file(line): code` for each error the comments of the must-fail files expect. */
function expectedErrors(file: string): string[] {
  return readFileSync(folder + file, "utf8")
    .split("\n")
    .flatMap((line, index) => {
      const match = /expect-error: (TS\d+)/.exec(line);
      return match === null ? [] : [`${file}(${index + 1}): ${match[1]}`];
    });
}

/** Runs tsc on the must-fail project; resolves with its output (it exits non-zero by design). */
function typecheckMustFail(): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsc, "--noEmit", "--pretty", "false", "-p", `${folder}tsconfig.json`],
      { cwd: root },
      (_error, stdout, stderr) => resolve(stdout + stderr),
    );
  });
}

describe("typed contract calls", () => {
  it("a misspelt method, a wrong argument and a wrong method list fail to compile, each with its own error", async () => {
    const output = await typecheckMustFail();
    const reported = [...output.matchAll(/must-fail\/([\w.-]+)\((\d+),\d+\): error (TS\d+)/g)].map(
      (m) => `${m[1]}(${m[2]}): ${m[3]}`,
    );
    const expected = expectedErrors("cross-contract.ts");
    expect(expected.length).toBeGreaterThan(3);
    expect(reported.sort()).toEqual(expected.sort());
  }, 180_000);
});
