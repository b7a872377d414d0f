/**
 * The example suite in examples/eval is a valid suite whose checks mean something: on the untouched
 * fixtures every task fails at least one check (a task the agent passes by doing nothing checks
 * nothing), and a correct solution passes them all, `node --test` included.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runChecks } from "../../../plugins/integrations/eval/checks.js";
import { readDocSet } from "../../../plugins/integrations/eval/doc-set.js";
import { type EvalTask, loadSuite } from "../../../plugins/integrations/eval/suite.js";

const EXAMPLE = fileURLToPath(new URL("../../../examples/eval/", import.meta.url));

/** A fresh copy of a task's fixture (or an empty folder). */
function workCopy(task: EvalTask): string {
  const folder = mkdtempSync(join(tmpdir(), "pi-eval-example-"));
  if (task.fixture !== undefined) cpSync(task.fixture, folder, { recursive: true });
  return folder;
}

describe("examples/eval", () => {
  const tasks = loadSuite(join(EXAMPLE, "suite"));
  const task = (name: string): EvalTask => tasks.find((t) => t.name === name)!;

  it("loads two tasks and the doc set", () => {
    expect(tasks.map((t) => t.name)).toEqual(["add-multiply", "service-port"]);
    expect(task("service-port").fixture).toBe(join(EXAMPLE, "suite", "shared-service"));
    expect(readDocSet(join(EXAMPLE, "docs")).files).toEqual(["conventions.md", "operations.md"]);
  });

  it("every task fails on its untouched fixture with no answer", async () => {
    for (const t of tasks) {
      const results = await runChecks(t.checks, { folder: workCopy(t), answer: "I did nothing." });
      expect(
        results.some((r) => !r.passed),
        t.name,
      ).toBe(true);
    }
  });

  it("a correct solution passes every check", async () => {
    const add = task("add-multiply");
    const folder = workCopy(add);
    const math = join(folder, "src", "math.js");
    writeFileSync(
      math,
      `${readFileSync(math, "utf8")}
/**
 * Multiplies two numbers.
 * @param {number} a
 * @param {number} b
 * @returns {number}
 */
export function multiply(a, b) {
  return a * b;
}
`,
    );
    const test = join(folder, "test", "math.test.js");
    writeFileSync(
      test,
      `${readFileSync(test, "utf8").replace("{ sum }", "{ multiply, sum }")}
test("multiply multiplies", () => {
  assert.equal(multiply(2, 3), 6);
});
`,
    );
    const added = await runChecks(add.checks, { folder, answer: "Added multiply." });
    expect(added.filter((r) => !r.passed)).toEqual([]);

    const port = task("service-port");
    const answered = await runChecks(port.checks, { folder: workCopy(port), answer: "It listens on 8443." });
    expect(answered.filter((r) => !r.passed)).toEqual([]);
  });
});
