/**
 * `pi eval`'s command line and its results table: options and their errors, aligned columns, the
 * details of what failed, and the per-variant summary that answers whether the docs helped.
 */
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../../plugins/integrations/eval/checks.js";
import { parseEvalArgs } from "../../../plugins/integrations/eval/eval-cli.js";
import { buildReport, formatReport } from "../../../plugins/integrations/eval/report.js";
import type { RunResult, Variant } from "../../../plugins/integrations/eval/run-task.js";

describe("pi eval arguments", () => {
  it("reads the options, both --flag value and --flag=value, and keeps pi flags after --", () => {
    expect(
      parseEvalArgs(["s", "--model", "a/b", "--docs=d", "--runs", "3", "--json", "r.json", "--timeout=1.5", "--keep"]),
    ).toEqual({
      suite: "s",
      model: "a/b",
      docs: "d",
      docsAs: "context",
      runs: 3,
      json: "r.json",
      timeout: 1.5,
      keep: true,
      piArgs: [],
    });
    expect(parseEvalArgs(["s", "--docs", "d", "--docs-as", "skill"])).toMatchObject({ docs: "d", docsAs: "skill" });
    expect(parseEvalArgs(["s", "--", "--tools", "read", "--thinking", "high"])).toMatchObject({
      runs: 1,
      timeout: 600,
      keep: false,
      piArgs: ["--tools", "read", "--thinking", "high"],
    });
  });

  it("says what to do about a bad command line", () => {
    const message = (args: string[]): string => {
      try {
        parseEvalArgs(args);
      } catch (error) {
        return (error as Error).message;
      }
      return "parsed";
    };
    expect(message(["--runs", "2"])).toBe('give the suite folder: pi eval <suite>; see "pi eval --help"');
    expect(message(["a", "b"])).toBe('one suite at a time; remove "b" (pi flags go after --)');
    expect(message(["s", "--runs", "1.5"])).toBe('--runs must be a whole number above 0; got "1.5"');
    expect(message(["s", "--timeout", "soon"])).toBe('--timeout must be a number above 0; got "soon"');
    expect(message(["s", "--model"])).toBe('--model needs a value; see "pi eval --help"');
    expect(message(["s", "--docs", "d", "--docs-as", "file"])).toBe('--docs-as must be context or skill; got "file"');
    expect(message(["s", "--docs-as", "skill"])).toBe("--docs-as needs --docs <folder>");
    expect(message(["s", "--tools", "read"])).toBe('unknown option --tools; see "pi eval --help"');
    expect(message(["s", "--", "--mode=rpc"])).toBe(
      "--mode=rpc cannot be passed to the runs: pi eval sets the mode and the session of each run",
    );
    expect(message(["s", "--", "-p"])).toMatch(/^-p cannot be passed to the runs/);
  });
});

const passed: CheckResult = { label: "file a exists", passed: true, detail: "exists" };
const failed: CheckResult = { label: 'answer contains "x"', passed: false, detail: 'the answer does not contain "x"' };

function result(task: string, variant: Variant, status: RunResult["status"], checks: CheckResult[]): RunResult {
  return {
    task,
    variant,
    run: 1,
    status,
    checks,
    turns: 3,
    tokens: 12345,
    cost: 0.0123,
    answer: "",
    error: status === "error" ? "timed out after 5 s" : undefined,
    ended: status !== "error",
    seconds: 4.25,
    exitCode: status === "error" ? null : 0,
    folder: undefined,
    sessionDir: undefined,
    model: "faux/faux-1",
  };
}

describe("pi eval report", () => {
  it("prints aligned rows, the details of failures and errors, and whether the docs helped", () => {
    const report = buildReport({
      suite: "/s",
      model: undefined,
      docs: { folder: "/d", files: ["a.md"], as: "context" },
      runsPerTask: 1,
      startedAt: "2026-01-01T00:00:00.000Z",
      seconds: 9,
      results: [
        result("long-task-name", "no-docs", "fail", [passed, failed]),
        result("long-task-name", "docs", "pass", [passed, passed]),
        result("t2", "no-docs", "error", [failed]),
        result("t2", "docs", "error", [failed]),
      ],
    });
    expect(report.summary).toEqual({
      "no-docs": { runs: 2, passed: 0, failed: 1, errors: 1, tokens: 24690, cost: 0.0246, seconds: 8.5 },
      docs: { runs: 2, passed: 1, failed: 0, errors: 1, tokens: 24690, cost: 0.0246, seconds: 8.5 },
    });
    expect(formatReport(report)).toBe(
      [
        "task            variant  run  result  checks  turns  tokens     cost  time",
        "--------------  -------  ---  ------  ------  -----  ------  -------  ----",
        "long-task-name  no-docs    1  FAIL    1/2         3   12345  $0.0123  4.3s",
        "long-task-name  docs       1  PASS    2/2         3   12345  $0.0123  4.3s",
        "t2              no-docs    1  ERROR   0/1         3   12345  $0.0123  4.3s",
        "t2              docs       1  ERROR   0/1         3   12345  $0.0123  4.3s",
        "",
        "Details:",
        '  long-task-name (no-docs, run 1): answer contains "x": the answer does not contain "x"',
        "  t2 (no-docs, run 1): error: timed out after 5 s",
        "  t2 (docs, run 1): error: timed out after 5 s",
        "",
        "no-docs: 0/2 passed (1 failed, 1 errors); 24690 tokens, $0.0246, 8.5s",
        "docs: 1/2 passed (1 errors); 24690 tokens, $0.0246, 8.5s",
        "with docs vs without: the docs helped (+1)",
        "",
      ].join("\n"),
    );
  });

  it("with several runs of each task, counts the passes by task and variant", () => {
    const second = (r: RunResult): RunResult => ({ ...r, run: 2 });
    const runs = [
      result("a", "no-docs", "fail", [failed]),
      second(result("a", "no-docs", "pass", [passed])),
      result("a", "docs", "pass", [passed]),
      second(result("a", "docs", "pass", [passed])),
      result("b", "no-docs", "pass", [passed]),
      second(result("b", "no-docs", "error", [])),
      result("b", "docs", "pass", [passed]),
      second(result("b", "docs", "pass", [passed])),
    ];
    const text = formatReport(
      buildReport({
        suite: "/s",
        model: "m/x",
        docs: { folder: "/d", files: ["a.md"], as: "skill" },
        runsPerTask: 2,
        startedAt: "2026-01-01T00:00:00.000Z",
        seconds: 1,
        results: runs,
      }),
    );
    expect(text).toContain("\nPasses by task:\n  a: no-docs 1/2, docs 2/2\n  b: no-docs 1/2, docs 2/2\n\n");
    expect(text).toContain("with docs vs without: the docs helped (+2)");
  });
});
