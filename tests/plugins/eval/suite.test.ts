/**
 * Reading an eval suite: task folders and task files, fixtures found by default or by path, and every
 * problem as one line naming the file and the field.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readDocSet } from "../../../plugins/integrations/eval/doc-set.js";
import { loadSuite, SuiteError } from "../../../plugins/integrations/eval/suite.js";

/** A fresh suite folder with `files` (path → JSON value or raw text). */
function suite(files: Record<string, unknown>): string {
  const root = mkdtempSync(join(tmpdir(), "pi-eval-suite-"));
  for (const [path, value] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  }
  return root;
}

/** The SuiteError message loading `root` throws. */
function problem(root: string): string {
  try {
    loadSuite(root);
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteError);
    return (error as Error).message;
  }
  throw new Error("the suite loaded");
}

const check = { file: "a.txt" };

describe("eval suites", () => {
  it("reads task folders and task files in name order, with default and explicit fixtures", () => {
    const root = suite({
      "b-folder/task.json": { prompt: "two", checks: [check], timeout: 5 },
      "b-folder/fixture/x.txt": "x",
      "a-file.json": { prompt: "one", fixture: "shared", checks: [{ answer: { contains: "ok" } }] },
      "shared/y.txt": "y",
      "c-plain/task.json": { prompt: "three", checks: [{ command: "true" }] },
      "notes/readme.md": "not a task: no task.json",
    });
    const tasks = loadSuite(root);
    expect(tasks.map((t) => [t.name, t.fixture, t.timeout])).toEqual([
      ["a-file", join(root, "shared"), undefined],
      ["b-folder", join(root, "b-folder", "fixture"), 5],
      ["c-plain", undefined, undefined],
    ]);
    expect(tasks[0]!.checks).toEqual([{ kind: "answer", name: undefined, contains: "ok", matches: undefined }]);
    expect(tasks[2]!.checks).toEqual([
      { kind: "command", name: undefined, command: "true", exitCode: 0, timeout: 120 },
    ]);
    expect(tasks[1]!.checks).toEqual([
      { kind: "file", name: undefined, path: "a.txt", exists: true, contains: undefined, matches: undefined },
    ]);
  });

  it("names the file and the field of each problem", () => {
    const at = (body: unknown): string => {
      const root = suite({ "t/task.json": body });
      return problem(root).replace(join(root, "t", "task.json"), "FILE");
    };
    expect(at({ checks: [check] })).toBe("FILE: prompt: missing; give the task's prompt as a string");
    expect(at({ prompt: " ", checks: [check] })).toBe("FILE: prompt: must be a non-empty string");
    expect(at({ prompt: "p" })).toBe("FILE: checks: missing; give at least one check");
    expect(at({ prompt: "p", checks: [] })).toBe("FILE: checks: must be a non-empty array");
    expect(at({ prompt: "p", checks: [check], promt: "typo" })).toBe(
      "FILE: promt: unknown field; expected one of prompt, fixture, timeout, checks",
    );
    expect(at({ prompt: "p", checks: [check, { file: "a", contians: "x" }] })).toBe(
      "FILE: checks[1].contians: unknown field; expected one of name, file, exists, contains, matches",
    );
    expect(at({ prompt: "p", checks: [{ file: "a", answer: { contains: "x" } }] })).toBe(
      'FILE: checks[0]: give exactly one of "file", "command" or "answer"',
    );
    expect(at({ prompt: "p", checks: [{ answer: { matches: "(" } }] })).toMatch(
      /^FILE: checks\[0\]\.answer\.matches: not a valid regular expression \(.+\)$/,
    );
    expect(at({ prompt: "p", checks: [{ answer: {} }] })).toBe('FILE: checks[0].answer: give "contains" or "matches"');
    expect(at({ prompt: "p", checks: [{ command: "true", exitCode: "0" }] })).toBe(
      "FILE: checks[0].exitCode: must be an integer",
    );
    expect(at({ prompt: "p", checks: [{ file: "a", exists: false, contains: "x" }] })).toBe(
      'FILE: checks[0].exists: false cannot be combined with "contains" or "matches"',
    );
    expect(at({ prompt: "p", checks: [check], timeout: 0 })).toBe("FILE: timeout: must be a number of seconds above 0");
    expect(at({ prompt: "p", checks: [check], fixture: "nowhere" })).toMatch(
      /^FILE: fixture: .*nowhere is not a folder \(the path is relative to the task file\)$/,
    );
    expect(at("{ not json")).toMatch(/^FILE: not valid JSON \(.+\)$/);
    expect(at([])).toBe('FILE: must be a JSON object with "prompt" and "checks"');
  });

  it("refuses a missing suite, a file for a suite and a suite without tasks", () => {
    const root = suite({ "notes.txt": "no tasks here" });
    expect(problem(join(root, "missing"))).toBe(`${join(root, "missing")}: no such suite folder`);
    expect(problem(join(root, "notes.txt"))).toBe(
      `${join(root, "notes.txt")}: a suite is a folder of tasks, not a file`,
    );
    expect(problem(root)).toBe(`${root}: no tasks; add <task>/task.json folders or <task>.json files`);
  });

  it("reads a doc set's text files in path order into one context, skipping binaries and .git", () => {
    const root = suite({ "b.md": "# B\nsecond", "a/guide.md": "first", "logo.png": "\u0000PNG", ".git/HEAD": "ref" });
    const docs = readDocSet(root);
    expect(docs.files).toEqual(["a/guide.md", "b.md"]);
    expect(docs.text).toContain('<document path="a/guide.md">\nfirst\n</document>\n<document path="b.md">');
    expect(docs.text.indexOf("first")).toBeLessThan(docs.text.indexOf("second"));
    expect(() => readDocSet(join(root, "missing"))).toThrow(/^--docs .*missing: no such folder$/);
    expect(() => readDocSet(suite({ "x.bin": "\u0000" }))).toThrow(/has no text files$/);
  });
});
