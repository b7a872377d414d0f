/**
 * Durable runs inside the real agent session (real loop, JSONL store, durable-runs plugin): what a mode
 * hears is already in the session file when it hears it (commit before show), and a session copied while
 * a tool call was still running — the file a crash leaves — is carried on by the next prompt: the
 * committed result is not run again, the unfinished call is, and the run ends with its answer.
 */
import { appendFileSync, copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SESSION_EVENT, type SessionEvent } from "../../../contracts/agent-session.js";
import { SettingsContract } from "../../../contracts/resources.js";
import { definePlugin } from "../../../kernel/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import durableRuns from "../../../plugins/session/durable-runs/index.js";
import { bootSession, testTool } from "../agent-session/harness.js";

/** Settings with durable runs on. */
const durableSettings = definePlugin({
  id: "test-settings",
  version: "1.0.0",
  provides: [SettingsContract],
  setup: (ctx) => ctx.provide(SettingsContract, { get: async () => ({ durableRuns: true }), set: async () => {} }),
});

type Line = Record<string, any>;
const lines = (file: string): Line[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

describe("durable runs in the agent session", () => {
  it("commit before show: each prompt, answer and tool result is in the file when a mode hears of it", async () => {
    const h = await bootSession({
      faux: {
        responses: [
          { content: [fauxToolCall("step", { n: 1 }, "c1"), fauxToolCall("step", { n: 2 }, "c2")] },
          { content: "done" },
        ],
      },
      tools: [testTool("step", async (args) => `did ${args.n}`)],
      extra: [durableSettings, durableRuns],
    });
    const seen: string[] = [];
    let file: string | undefined;
    h.kernel.on(SESSION_EVENT, (event: SessionEvent) => {
      file ??= h.session.api.state().sessionFile;
      const onDisk = file === undefined ? [] : lines(file);
      const messages = onDisk.filter((l) => l.type === "message").map((l) => l.message);
      const marks = onDisk.filter((l) => l.type === "custom" && l.customType === "durable-run").map((l) => l.data);
      if (event.type === "message_start" && event.message.role === "user")
        seen.push(`user:${messages.some((m) => m.role === "user")}`);
      if (event.type === "message_end" && event.message.role === "assistant")
        seen.push(
          `answer:${messages.some((m) => m.timestamp === event.message.timestamp && m.role === "assistant")}:${marks.at(-1)?.kind}`,
        );
      if (event.type === "tool_execution_end")
        seen.push(`tool:${marks.some((m) => m.kind === "tool" && m.toolCallId === event.toolCallId)}`);
      if (event.type === "message_start" && event.message.role === "toolResult")
        seen.push(
          `result:${messages.some((m) => m.role === "toolResult" && m.toolCallId === (event.message as { toolCallId: string }).toolCallId)}`,
        );
    });
    await h.session.api.prompt("do two steps");
    expect(seen).toEqual([
      "user:true",
      "answer:true:answer",
      "tool:true",
      "tool:true",
      "result:true",
      "result:true",
      "answer:true:answer",
    ]);
    const kinds = lines(file!)
      .filter((l) => l.type === "custom")
      .map((l) => l.data.kind);
    expect(kinds).toEqual(["start", "answer", "tool", "tool", "answer", "end"]);
    await h.kernel.shutdown();
  });

  it("a file left while one of two calls was still running is carried on: the committed call does not run again", async () => {
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    const first = await bootSession({
      faux: {
        responses: [{ content: [fauxToolCall("step", { n: "a" }, "ca"), fauxToolCall("step", { n: "b" }, "cb")] }],
      },
      tools: [
        testTool("step", async (args) => {
          ran.push(`first:${args.n}`);
          if (args.n === "b") await stuck;
          return `did ${args.n}`;
        }),
      ],
      extra: [durableSettings, durableRuns],
    });
    const running = first.session.api.prompt("two steps");
    // Wait until call "a" is committed and "b" still runs: then the file is what a crash would leave.
    const file = await new Promise<string>((resolve) => {
      first.kernel.on(SESSION_EVENT, (event: SessionEvent) => {
        if (event.type === "tool_execution_end" && event.toolCallId === "ca")
          resolve(first.session.api.state().sessionFile!);
      });
    });
    const crashed = join(first.cwd, "crashed.jsonl");
    copyFileSync(file, crashed);
    release();
    await running;
    await first.kernel.shutdown();

    const second = await bootSession({
      faux: { responses: [{ content: "both done" }, { content: "and the new prompt" }] },
      tools: [
        testTool("step", async (args) => {
          ran.push(`second:${args.n}`);
          return `did ${args.n} again`;
        }),
      ],
      extra: [durableSettings, durableRuns],
      config: { session: crashed },
      agentDir: first.agentDir,
      cwd: first.cwd,
    });
    await second.session.api.prompt("go on");
    expect(ran).toEqual(["first:a", "first:b", "second:b"]);
    const after = lines(crashed);
    const results = after.filter((l) => l.type === "message" && l.message.role === "toolResult").map((l) => l.message);
    expect(results.map((r) => [r.toolCallId, r.content[0].text])).toEqual([
      ["ca", "did a"],
      ["cb", "did b again"],
    ]);
    const texts = after
      .filter((l) => l.type === "message" && l.message.role === "assistant" && l.message.stopReason === "stop")
      .map((l) => l.message.content[0].text);
    expect(texts).toEqual(["both done", "and the new prompt"]);
    const kinds = after.filter((l) => l.type === "custom").map((l) => l.data.kind);
    expect(kinds).toEqual(["start", "answer", "tool", "resume", "tool", "answer", "end", "start", "answer", "end"]);
    // The faux model saw both results once, in the resumed run's request.
    const resumedRequest = second.faux.requests[0]!.context.messages.map((m) => m.role);
    expect(resumedRequest).toEqual(["user", "assistant", "toolResult", "toolResult"]);
    await second.kernel.shutdown();
  });

  it("resumeInterrupted carries the run on with no prompt (a front end at start); a parked run is refused", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writer = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("step", { n: "x" }, "cx")] }] },
      tools: [testTool("step", async () => held.then(() => "late"))],
      extra: [durableSettings, durableRuns],
    });
    const started = new Promise<string>((resolve) => {
      writer.kernel.on(SESSION_EVENT, (event: SessionEvent) => {
        if (event.type === "tool_execution_start") resolve(writer.session.api.state().sessionFile!);
      });
    });
    const writing = writer.session.api.prompt("one step").catch(() => undefined);
    const crashed = join(writer.cwd, "crashed.jsonl");
    copyFileSync(await started, crashed);
    release();
    await writing;
    await writer.kernel.shutdown();

    const reopen = async (file: string) =>
      bootSession({
        faux: { responses: [{ content: "done" }] },
        tools: [testTool("step", async (args) => `did ${args.n}`)],
        extra: [durableSettings, durableRuns],
        config: { session: file },
        agentDir: writer.agentDir,
        cwd: writer.cwd,
      });
    const parked = join(writer.cwd, "parked.jsonl");
    copyFileSync(crashed, parked);
    // Four resumes that crashed with no step between them, after the first crash: five in a row.
    const runId = lines(parked).find((l) => l.type === "custom")!.data.runId;
    let parent = lines(parked).at(-1)!.id as string;
    for (let i = 0; i < 4; i++) {
      const id = `0000000${i}`;
      const entry = {
        type: "custom",
        customType: "durable-run",
        data: { kind: "resume", runId },
        id,
        parentId: parent,
      };
      appendFileSync(parked, `${JSON.stringify({ ...entry, timestamp: new Date().toISOString() })}\n`);
      parent = id;
    }
    const refused = await reopen(parked);
    await expect(refused.session.api.resumeInterrupted()).rejects.toThrow(
      'the interrupted run of this session crashed 5 times in a row and is parked; run "pi --continue --retry-parked" to try it again, or start a new session without --continue',
    );
    expect(refused.faux.requests).toHaveLength(0);
    await refused.kernel.shutdown();

    const resumed = await reopen(crashed);
    await resumed.session.api.resumeInterrupted();
    const after = lines(crashed);
    expect(after.filter((l) => l.type === "message").map((l) => l.message.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    expect(after.filter((l) => l.type === "custom").map((l) => l.data.kind)).toEqual([
      "start",
      "answer",
      "resume",
      "tool",
      "answer",
      "end",
    ]);
    // Nothing left to carry on: a second call does nothing.
    await resumed.session.api.resumeInterrupted();
    expect(resumed.faux.requests).toHaveLength(1);
    await resumed.kernel.shutdown();
  });
});
