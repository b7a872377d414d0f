import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../contracts/agent.js";
import type { AssistantMessage, ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxText, fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { gate, LoopHarness, tool, user } from "./harness.js";

const results = (messages: AgentMessage[]): ToolResultMessage[] =>
  messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
const text = (m: ToolResultMessage): string => m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("agent loop", () => {
  it("a text answer: pi's event sequence, one loop call per turn", async () => {
    const h = new LoopHarness({ responses: [{ content: "hello" }] });
    const added = await h.run("hi");
    expect(h.trace().filter((t) => t !== "message_update")).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    expect(h.trace()).toContain("message_update");
    expect(added.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect((added[1] as AssistantMessage).content).toEqual([{ type: "text", text: "hello" }]);
    expect(h.turnCalls).toBe(1);
  });

  it("a tool call, its result, then the answer; transformContext and convertToLlm once per turn", async () => {
    const h = new LoopHarness({
      responses: [{ content: [fauxToolCall("echo", { say: "x" }, "c1")] }, { content: "done" }],
    });
    h.tools = [tool("echo", async (args) => `said ${args.say}`)];
    let transforms = 0;
    let converts = 0;
    h.hooks = {
      transformContext: async (m) => (transforms++, m),
      convertToLlm: (m) => (converts++, m.filter((x): x is any => x.role !== "custom")),
    };
    const added = await h.run("go");
    expect(added.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(text(results(added)[0]!)).toBe("said x");
    expect(h.turnCalls).toBe(2);
    expect([transforms, converts]).toEqual([2, 2]);
    // The second request carried the tool result.
    expect(h.faux.requests[1]!.context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
  });

  it("three parallel tools finishing in reverse order: end events in completion order, results in call order", async () => {
    const h = new LoopHarness({
      responses: [
        {
          content: [
            fauxToolCall("wait", { n: 1 }, "a"),
            fauxToolCall("wait", { n: 2 }, "b"),
            fauxToolCall("wait", { n: 3 }, "c"),
          ],
        },
        { content: "ok" },
      ],
    });
    const gates = { a: gate(), b: gate(), c: gate() };
    let running = 0;
    let peak = 0;
    h.tools = [
      tool("wait", async (args: { n: number }) => {
        running++;
        peak = Math.max(peak, running);
        await gates[(["a", "b", "c"] as const)[args.n - 1]!].promise;
        running--;
        return `done ${args.n}`;
      }),
    ];
    const done = h.run("go");
    while (running < 3) await flush();
    gates.c.open();
    await flush();
    gates.b.open();
    await flush();
    gates.a.open();
    const added = await done;
    expect(peak).toBe(3);
    expect(h.trace().filter((t) => t.startsWith("tool_execution_end"))).toEqual([
      "tool_execution_end:c",
      "tool_execution_end:b",
      "tool_execution_end:a",
    ]);
    expect(h.trace().filter((t) => t.startsWith("tool_execution_start"))).toEqual([
      "tool_execution_start:a",
      "tool_execution_start:b",
      "tool_execution_start:c",
    ]);
    expect(results(added).map((r) => r.toolCallId)).toEqual(["a", "b", "c"]);
  });

  it("a tool marked sequential makes its whole batch run one call at a time", async () => {
    const h = new LoopHarness({
      responses: [{ content: [fauxToolCall("slow", {}, "a"), fauxToolCall("careful", {}, "b")] }, { content: "ok" }],
    });
    let running = 0;
    let peak = 0;
    const body = async (): Promise<string> => {
      running++;
      peak = Math.max(peak, running);
      await flush();
      running--;
      return "ok";
    };
    h.tools = [tool("slow", body), tool("careful", body, { executionMode: "sequential" })];
    await h.run("go");
    expect(peak).toBe(1);
  });

  it("steering typed while a tool runs: the tool finishes, the message goes in before the next request", async () => {
    const h = new LoopHarness({ responses: [{ content: [fauxToolCall("work", {}, "w")] }, { content: "steered" }] });
    const hold = gate();
    let finished = false;
    h.tools = [
      tool("work", async () => {
        await hold.promise;
        finished = true;
        return "worked";
      }),
    ];
    const done = h.run("start");
    while (!h.trace().includes("tool_execution_start:w")) await flush();
    h.steering.push(user("change of plan"));
    await flush();
    expect(finished).toBe(false);
    hold.open();
    const added = await done;
    expect(finished).toBe(true);
    expect(text(results(added)[0]!)).toBe("worked");
    const second = h.faux.requests[1]!.context.messages;
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
    expect(second[3]).toMatchObject({ role: "user", content: "change of plan" });
  });

  it("follow-ups wait until the agent would stop, then start another turn", async () => {
    const h = new LoopHarness({
      responses: [{ content: [fauxToolCall("t", {}, "t1")] }, { content: "first done" }, { content: "follow-up done" }],
    });
    h.tools = [
      tool("t", async () => {
        h.followUps.push(user("and then this"));
        return "ok";
      }),
    ];
    const added = await h.run("go");
    // The follow-up was not injected after the tool result (the model still had to answer it)...
    expect(h.faux.requests[1]!.context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    // ...but after the answer, when the run would have ended.
    expect(h.faux.requests[2]!.context.messages.at(-1)).toMatchObject({ role: "user", content: "and then this" });
    expect((added.at(-1) as AssistantMessage).content).toEqual([fauxText("follow-up done")]);
  });

  it("a message cut by length fails all its tool calls with an instruction to re-issue them", async () => {
    const h = new LoopHarness({
      responses: [
        {
          content: [fauxToolCall("write", { path: "a" }, "x"), fauxToolCall("write", { path: "b" }, "y")],
          stopReason: "length",
        },
        { content: "retrying" },
      ],
    });
    let ran = 0;
    h.tools = [tool("write", async () => (ran++, "written"))];
    const added = await h.run("go");
    expect(ran).toBe(0);
    const [rx, ry] = results(added);
    expect(rx!.isError && ry!.isError).toBe(true);
    expect(text(rx!)).toMatch(/cut off.*issue the call again/);
    expect(h.faux.requests).toHaveLength(2);
  });

  it("a blocked tool, an unknown tool, invalid arguments and a throwing tool each become one error result", async () => {
    const h = new LoopHarness({
      responses: [
        {
          content: [
            fauxToolCall("rm", { path: "/" }, "blocked"),
            fauxToolCall("nope", {}, "unknown"),
            fauxToolCall("typed", { count: "three" }, "invalid"),
            fauxToolCall("boom", {}, "thrown"),
            fauxToolCall("typed", { count: 3 }, "fine"),
          ],
        },
        { content: "ok" },
      ],
    });
    let rmRan = false;
    h.tools = [
      tool("rm", async () => ((rmRan = true), "removed")),
      tool("typed", async (a) => `count ${a.count}`, { parameters: Type.Object({ count: Type.Number() }) }),
      tool("boom", async () => {
        throw new Error("disk on fire");
      }),
    ];
    h.hooks = {
      beforeToolCall: async ({ toolCall }) =>
        toolCall.name === "rm" ? { block: true, reason: "rm is not allowed here" } : undefined,
    };
    const added = await h.run("go");
    expect(rmRan).toBe(false);
    const byId = Object.fromEntries(results(added).map((r) => [r.toolCallId, r]));
    expect(text(byId.blocked!)).toBe("rm is not allowed here");
    expect(text(byId.unknown!)).toMatch(/Tool "nope" not found/);
    expect(text(byId.invalid!)).toMatch(/Invalid arguments for "typed": \/count/);
    expect(text(byId.thrown!)).toBe("disk on fire");
    expect(byId.fine).toMatchObject({ isError: false });
    for (const id of ["blocked", "unknown", "invalid", "thrown"]) expect(byId[id]!.isError).toBe(true);
    expect([...h.resultCounts(added).values()]).toEqual([1, 1, 1, 1, 1]);
  });

  it("afterToolCall may rewrite content, isError and terminate", async () => {
    const h = new LoopHarness({ responses: [{ content: [fauxToolCall("t", {}, "t1")] }, { content: "ok" }] });
    h.tools = [tool("t", async () => "secret")];
    h.hooks = {
      afterToolCall: async ({ result }) => ({
        content: [{ type: "text", text: `redacted (${result.content.length})` }],
        isError: true,
      }),
    };
    const added = await h.run("go");
    expect(results(added)[0]).toMatchObject({ isError: true, content: [{ type: "text", text: "redacted (1)" }] });
  });

  it("the run ends early only when every result of the batch votes terminate", async () => {
    const all = new LoopHarness({
      responses: [{ content: [fauxToolCall("stop", {}, "s1"), fauxToolCall("stop", {}, "s2")] }, { content: "never" }],
    });
    all.tools = [tool("stop", async () => ({ content: [{ type: "text", text: "bye" }], terminate: true }))];
    await all.run("go");
    expect(all.faux.requests).toHaveLength(1);

    const some = new LoopHarness({
      responses: [
        { content: [fauxToolCall("stop", {}, "s1"), fauxToolCall("go", {}, "g1")] },
        { content: "continued" },
      ],
    });
    some.tools = [
      tool("stop", async () => ({ content: [{ type: "text", text: "bye" }], terminate: true })),
      tool("go", async () => "on"),
    ];
    await some.run("go");
    expect(some.faux.requests).toHaveLength(2);
  });

  it("abort during a tool reaches the tool, every call still gets one result, and the run ends", async () => {
    const h = new LoopHarness({
      responses: [{ content: [fauxToolCall("sleep", {}, "s"), fauxToolCall("quick", {}, "q")] }, { content: "never" }],
    });
    h.tools = [
      tool(
        "sleep",
        (_a, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener("abort", () => reject(new Error("aborted by user")), { once: true });
          }),
      ),
      tool("quick", async () => "quick"),
    ];
    const done = h.run("go");
    while (!h.trace().includes("tool_execution_start:s")) await flush();
    await flush();
    h.abort.abort();
    const added = await done;
    expect([...h.resultCounts(added).values()]).toEqual([1, 1]);
    expect(results(added).find((r) => r.toolCallId === "s")).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "aborted by user" }],
    });
    expect(h.faux.requests).toHaveLength(1);
    expect(h.trace().at(-1)).toBe("agent_end");
  });

  it("abort during streaming ends the turn with an aborted message and ends the run", async () => {
    const h = new LoopHarness({ responses: [{ content: "a long answer ".repeat(200) }] });
    const done = h.run("go");
    while (h.events.filter((e) => e.type === "message_update").length < 3) await flush();
    h.abort.abort();
    const added = await done;
    const last = added.at(-1) as AssistantMessage;
    expect(last.stopReason).toBe("aborted");
    expect(h.trace().slice(-3)).toEqual(["message_end:assistant", "turn_end", "agent_end"]);
  });

  it("an errored answer ends the run; finishTurn can end it after a turn", async () => {
    const failing = new LoopHarness({ responses: [{ stopReason: "error", errorMessage: "overloaded" }] });
    const added = await failing.run("go");
    expect(added.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "overloaded" });

    const stopping = new LoopHarness({ responses: [{ content: [fauxToolCall("t", {}, "t1")] }, { content: "never" }] });
    stopping.tools = [tool("t", async () => "ok")];
    stopping.hooks = { finishTurn: async () => true };
    await stopping.run("go");
    expect(stopping.faux.requests).toHaveLength(1);
  });

  it("tool updates stream as tool_execution_update events", async () => {
    const h = new LoopHarness({ responses: [{ content: [fauxToolCall("t", {}, "t1")] }, { content: "ok" }] });
    h.tools = [
      tool("t", async (_a, _s, onUpdate) => {
        onUpdate?.({ content: [{ type: "text", text: "25%" }] });
        onUpdate?.({ content: [{ type: "text", text: "75%" }] });
        return "100%";
      }),
    ];
    await h.run("go");
    const updates = h.events.filter((e) => e.type === "tool_execution_update") as Array<{
      partialResult: { content: Array<{ text: string }> };
    }>;
    expect(updates.map((u) => u.partialResult.content[0]!.text)).toEqual(["25%", "75%"]);
  });

  it("prepareRequest can rewrite the request and prepareNextTurn runs between turns", async () => {
    const h = new LoopHarness({ responses: [{ content: [fauxToolCall("t", {}, "t1")] }, { content: "ok" }] });
    h.tools = [tool("t", async () => "ok")];
    let between = 0;
    h.hooks = {
      prepareRequest: async ({ context, options }) => ({ context: { ...context, systemPrompt: "rewritten" }, options }),
      prepareNextTurn: async () => void between++,
    };
    await h.run("go");
    expect(h.faux.requests.map((r) => r.context.systemPrompt)).toEqual(["rewritten", "rewritten"]);
    expect(between).toBe(1);
  });
});
