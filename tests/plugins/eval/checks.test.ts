/**
 * Judging an eval run's checks in its working folder, and reading its JSON event stream: a check that
 * does not hold is a result with what was seen, and the stream's turns, tokens, cost and answer add up.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Check, runChecks } from "../../../plugins/integrations/eval/checks.js";
import { RunEventReader } from "../../../plugins/integrations/eval/run-events.js";

const folder = mkdtempSync(join(tmpdir(), "pi-eval-checks-"));
writeFileSync(join(folder, "a.ts"), "export const answer = 42;\n");

const file = (path: string, more: Partial<Check> = {}): Check =>
  ({ kind: "file", name: undefined, path, exists: true, contains: undefined, matches: undefined, ...more }) as Check;
const command = (line: string, exitCode = 0, timeout = 30): Check => ({
  kind: "command",
  name: undefined,
  command: line,
  exitCode,
  timeout,
});

describe("eval checks", () => {
  it("file checks: exists, absent, contains, matches, and never outside the folder", async () => {
    const results = await runChecks(
      [
        file("a.ts"),
        file("b.ts"),
        file("b.ts", { exists: false }),
        file("a.ts", { exists: false }),
        file("a.ts", { contains: "answer = 42" }),
        file("a.ts", { contains: "43", matches: "answer = \\d+" }),
        file("../outside.txt"),
      ],
      { folder, answer: "" },
    );
    expect(results.map((r) => [r.label, r.passed, r.detail])).toEqual([
      ["file a.ts exists", true, "exists"],
      ["file b.ts exists", false, "b.ts does not exist"],
      ["file b.ts absent", true, "absent"],
      ["file a.ts absent", false, "a.ts exists"],
      ['file a.ts contains "answer = 42"', true, "matches"],
      [
        'file a.ts contains "43" and matches /answer = \\d+/',
        false,
        'a.ts does not contain "43" (it starts "export const answer = 42;")',
      ],
      ["file ../outside.txt exists", false, "../outside.txt is outside the task folder"],
    ]);
  });

  it("command checks run in the folder and compare the exit code, keeping the output of a failure", async () => {
    const results = await runChecks(
      [command("grep -q 42 a.ts"), command("echo boom; exit 3"), command("exit 3", 3), command("sleep 30", 0, 0.2)],
      { folder, answer: "" },
    );
    expect(results.map((r) => [r.passed, r.detail])).toEqual([
      [true, "exited 0"],
      [false, "exited 3, expected 0; output: boom"],
      [true, "exited 3"],
      [false, "timed out after 0.2 s"],
    ]);
  });

  it("command checks see the answer and the task's folder (for check scripts kept out of the fixture)", async () => {
    const taskDir = mkdtempSync(join(tmpdir(), "pi-eval-task-"));
    writeFileSync(join(taskDir, "judge.sh"), 'case "$PI_EVAL_ANSWER" in *42*) exit 0;; *) exit 1;; esac\n');
    const judge = command('sh "$PI_EVAL_TASK_DIR/judge.sh"');
    expect((await runChecks([judge], { folder, answer: "It is 42.", taskDir }))[0]).toMatchObject({ passed: true });
    expect((await runChecks([judge], { folder, answer: "No idea.", taskDir }))[0]).toMatchObject({
      passed: false,
      detail: "exited 1, expected 0",
    });
  });

  it("answer checks look at the final answer; a name replaces the label", async () => {
    const results = await runChecks(
      [
        { kind: "answer", name: "says 42", contains: "42", matches: undefined },
        { kind: "answer", name: undefined, contains: undefined, matches: "^\\d+$" },
      ],
      { folder, answer: "The answer is 42." },
    );
    expect(results).toEqual([
      { label: "says 42", passed: true, detail: "matches" },
      {
        label: "answer matches /^\\d+$/",
        passed: false,
        detail: 'the answer does not match /^\\d+$/ (it starts "The answer is 42.")',
      },
    ]);
  });
});

describe("eval run events", () => {
  const assistant = (content: unknown, usage: object, extra: object = {}) =>
    JSON.stringify({ type: "message_end", message: { role: "assistant", content, usage, ...extra } });

  it("sums turns, tokens and cost over assistant messages and keeps the last answer, across split chunks", () => {
    const stream = [
      JSON.stringify({ type: "session", version: 3 }),
      assistant([{ type: "toolCall", name: "read" }], { input: 100, output: 10, cacheRead: 5, cost: { total: 0.01 } }),
      JSON.stringify({ type: "message_end", message: { role: "toolResult", content: [], usage: { input: 999 } } }),
      JSON.stringify({ type: "turn_end" }),
      assistant(
        [
          { type: "text", text: "all " },
          { type: "text", text: "done" },
        ],
        {
          input: 200,
          output: 20,
          cacheWrite: 1,
          cost: { total: 0.02 },
        },
        { provider: "anthropic", model: "claude-x" },
      ),
      JSON.stringify({ type: "turn_end" }),
      JSON.stringify({ type: "agent_end", messages: [] }),
    ].join("\n");
    const reader = new RunEventReader();
    for (let i = 0; i < stream.length; i += 7) reader.push(stream.slice(i, i + 7));
    const metrics = reader.finish();
    expect(metrics).toMatchObject({
      turns: 2,
      tokens: 336,
      answer: "all done",
      error: undefined,
      ended: true,
      model: "anthropic/claude-x",
    });
    expect(metrics.cost).toBeCloseTo(0.03);
  });

  it("reports the provider's error when the last assistant message stopped on one", () => {
    const reader = new RunEventReader();
    reader.push(`${assistant([], {}, { stopReason: "error", errorMessage: "401 bad key" })}\nnot json\n`);
    expect(reader.finish()).toMatchObject({ error: "401 bad key", ended: false, tokens: 0 });
  });
});
