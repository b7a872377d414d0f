/**
 * The resume logic of durable runs, over hand-built session branches: where an interrupted run goes on
 * from (a cut-off answer, tool calls with and without committed results, an answer that ended the run),
 * which runs count as interrupted, and how crashes in a row park a run.
 */
import { describe, expect, it } from "vitest";
import { DURABLE_RUN_ENTRY, type DurableMark, type SessionEntry } from "../../../hosts/api.js";
import { findInterrupted } from "../../../plugins/session/durable-runs/plan.js";

let n = 0;
const base = () => ({ id: `e${++n}`, parentId: null, timestamp: "2026-01-01T00:00:00.000Z" });
const mark = (data: DurableMark): SessionEntry => ({ ...base(), type: "custom", customType: DURABLE_RUN_ENTRY, data });
const user = (text: string): SessionEntry => ({
  ...base(),
  type: "message",
  message: { role: "user", content: text, timestamp: 1 },
});
const answer = (calls: string[], stopReason = calls.length > 0 ? "toolUse" : "stop"): SessionEntry => ({
  ...base(),
  type: "message",
  message: {
    role: "assistant",
    content: calls.length
      ? calls.map((id) => ({ type: "toolCall", id, name: "bash", arguments: { command: `echo ${id}` } }))
      : [{ type: "text", text: "done" }],
    api: "openai-completions",
    provider: "mock",
    model: "mock-1",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason,
    timestamp: 2,
  } as never,
});
const result = (toolCallId: string): SessionEntry => ({
  ...base(),
  type: "message",
  message: {
    role: "toolResult",
    toolCallId,
    toolName: "bash",
    content: [{ type: "text", text: toolCallId }],
    isError: false,
    timestamp: 3,
  },
});
const toolMark = (runId: string, toolCallId: string): SessionEntry =>
  mark({
    kind: "tool",
    runId,
    toolCallId,
    toolName: "bash",
    content: [{ type: "text", text: `ok ${toolCallId}` }],
    isError: false,
  });

describe("findInterrupted", () => {
  it("a branch with no run, or whose last run ended, has nothing to resume", () => {
    expect(findInterrupted([user("hi"), answer([])], 5, false)).toBeUndefined();
    const ended = [
      mark({ kind: "start", runId: "r1" }),
      user("hi"),
      answer([]),
      mark({ kind: "end", runId: "r1", aborted: false }),
    ];
    expect(findInterrupted(ended, 5, false)).toBeUndefined();
  });

  it("an earlier run that ended does not hide a later one that did not", () => {
    const path = [
      mark({ kind: "start", runId: "r1" }),
      user("one"),
      answer([]),
      mark({ kind: "end", runId: "r1", aborted: false }),
      mark({ kind: "start", runId: "r2" }),
      user("two"),
    ];
    expect(findInterrupted(path, 5, false)).toMatchObject({
      runId: "r2",
      crashes: 1,
      parked: false,
      plan: { kind: "answer" },
    });
  });

  it("a prompt whose answer was cut off (never committed) is asked again", () => {
    const path = [mark({ kind: "start", runId: "r" }), user("task")];
    expect(findInterrupted(path, 5, false)?.plan).toEqual({ kind: "answer" });
  });

  it("a run with no committed prompt has nothing to carry on", () => {
    expect(findInterrupted([mark({ kind: "start", runId: "r" })], 5, false)?.plan).toEqual({ kind: "finish" });
  });

  it("committed tool results are never run again: results as checkpoints are recovered, the rest run again", () => {
    const path = [
      mark({ kind: "start", runId: "r" }),
      user("task"),
      answer(["a", "b", "c"]),
      mark({ kind: "answer", runId: "r" }),
      toolMark("r", "a"),
      result("a"),
      toolMark("r", "b"),
    ];
    const plan = findInterrupted(path, 5, false)?.plan;
    expect(plan?.kind).toBe("tools");
    if (plan?.kind !== "tools") return;
    expect(plan.rerun).toEqual(["c"]);
    expect(plan.recovered).toHaveLength(1);
    expect(plan.recovered[0]).toMatchObject({
      role: "toolResult",
      toolCallId: "b",
      content: [{ type: "text", text: "ok b" }],
    });
    expect(plan.message.content.map((c) => (c as { id: string }).id)).toEqual(["a", "b", "c"]);
  });

  it("an answer whose calls all have results asks the model for the next step", () => {
    const path = [mark({ kind: "start", runId: "r" }), user("task"), answer(["a"]), toolMark("r", "a"), result("a")];
    expect(findInterrupted(path, 5, false)?.plan).toEqual({ kind: "answer" });
  });

  it("a final answer with only the end checkpoint missing finishes; a failed answer is asked again", () => {
    expect(findInterrupted([mark({ kind: "start", runId: "r" }), user("t"), answer([])], 5, false)?.plan).toEqual({
      kind: "finish",
    });
    const failed = [mark({ kind: "start", runId: "r" }), user("t"), answer([], "error")];
    expect(findInterrupted(failed, 5, false)?.plan).toEqual({ kind: "answer" });
  });

  it("steering after an answer's results asks the model again", () => {
    const path = [mark({ kind: "start", runId: "r" }), user("t"), answer(["a"]), result("a"), user("also this")];
    expect(findInterrupted(path, 5, false)?.plan).toEqual({ kind: "answer" });
  });

  it("crashes in a row count resumes with no step between; a step starts the count over", () => {
    const start = [mark({ kind: "start", runId: "r" }), user("t"), answer(["a"])];
    const resumes = (k: number) => Array.from({ length: k }, () => mark({ kind: "resume", runId: "r" }));
    expect(findInterrupted(start, 5, false)?.crashes).toBe(1);
    expect(findInterrupted([...start, ...resumes(3)], 5, false)).toMatchObject({ crashes: 4, parked: false });
    const parked = findInterrupted([...start, ...resumes(4)], 5, false);
    expect(parked).toMatchObject({ crashes: 5, parked: true });
    expect(parked?.notice).toBe(
      'the interrupted run of this session crashed 5 times in a row and is parked; run "pi --continue --retry-parked" to try it again, or start a new session without --continue',
    );
    expect(findInterrupted([...start, ...resumes(4)], 5, true)?.parked).toBe(false);
    const progressed = [...start, ...resumes(4), toolMark("r", "a"), result("a"), ...resumes(1)];
    expect(findInterrupted(progressed, 5, false)).toMatchObject({ crashes: 2, parked: false });
    const retried = [...start, ...resumes(4), mark({ kind: "resume", runId: "r", retry: true })];
    expect(findInterrupted(retried, 5, false)).toMatchObject({ crashes: 1, parked: false });
  });

  it("checkpoints of another run do not count", () => {
    const path = [
      mark({ kind: "start", runId: "r" }),
      user("t"),
      mark({ kind: "end", runId: "other", aborted: false }),
    ];
    expect(findInterrupted(path, 5, false)?.runId).toBe("r");
  });
});
