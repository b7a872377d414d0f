import { afterEach, describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import type { AgentTool } from "../../../contracts/tool.js";
import { fauxText, fauxThinking, fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { testTool } from "../agent-session/harness.js";
import { startRpc, type RpcHarness, type RpcRecord } from "./rpc-harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** A tool that returns only when the test releases it, so a test can act while a run is mid-way. */
function gate(name = "wait"): { tool: AgentTool<any, any>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { tool: testTool(name, async () => (await held, "waited")), release };
}

/** A tool that runs until the run is aborted. */
const untilAborted: AgentTool<any, any> = {
  name: "forever",
  description: "runs until aborted",
  parameters: Type.Object({}),
  execute: (_id, _args, signal) =>
    new Promise((resolve) =>
      signal?.addEventListener("abort", () => resolve({ content: [{ type: "text", text: "stopped" }] }), {
        once: true,
      }),
    ),
};

/** Event types from `from` on, with runs of message_update folded into one. */
function eventTypes(records: RpcRecord[], from = 0): string[] {
  const out: string[] = [];
  for (const r of records.slice(from)) {
    const name = r.type === "message_start" || r.type === "message_end" ? `${r.type}:${r.message.role}` : r.type;
    if (name === "message_update" && out.at(-1) === "message_update") continue;
    out.push(name);
  }
  return out;
}

describe("prompt", () => {
  it("responds once the run starts (disposition started), then streams the run's events in order, in pi 1.6.0's shape", async () => {
    const h = (harness = await startRpc({
      faux: {
        responses: [
          { content: [fauxThinking("let me look"), fauxToolCall("look", { path: "a.txt" }, "call-1")] },
          { content: [fauxText("all done here")] },
        ],
      },
      tools: [testTool("look", async () => "seen")],
    }));
    const response = await h.client.request({ type: "prompt", message: "look at a.txt" });
    expect(response).toEqual({
      id: "req-1",
      type: "response",
      command: "prompt",
      success: true,
      data: { disposition: "started" },
    });
    await h.client.event("agent_settled");
    const afterResponse = h.client.records.indexOf(response);
    expect(eventTypes(h.client.records, afterResponse)).toEqual([
      "response",
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_update",
      "message_end:assistant",
      "tool_execution_start",
      "tool_execution_end",
      "message_start:toolResult",
      "message_end:toolResult",
      "turn_end",
      "turn_start",
      "message_start:assistant",
      "message_update",
      "message_end:assistant",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    const updates = h.client.records.slice(afterResponse).filter((r) => r.type === "message_update");
    // Deltas only: no partial message rides along, the usage is on top, and the deltas rebuild what message_end says.
    for (const u of updates) {
      expect(u.assistantMessageEvent.partial).toBeUndefined();
      expect(u.message).toBeUndefined();
      expect(u.usage).toMatchObject({
        input: expect.any(Number),
        output: expect.any(Number),
        cost: expect.any(Object),
      });
    }
    const deltas = (type: string) =>
      updates
        .filter((u) => u.assistantMessageEvent.type === type)
        .map((u) => u.assistantMessageEvent.delta)
        .join("");
    expect(deltas("thinking_delta")).toBe("let me look");
    expect(deltas("text_delta")).toBe("all done here");
    expect(JSON.parse(deltas("toolcall_delta"))).toEqual({ path: "a.txt" });
    expect(updates.find((u) => u.assistantMessageEvent.type === "toolcall_start")!.assistantMessageEvent).toEqual({
      type: "toolcall_start",
      contentIndex: 1,
      id: "call-1",
      toolName: "look",
    });
    expect(updates.find((u) => u.assistantMessageEvent.type === "text_end")!.assistantMessageEvent).toEqual({
      type: "text_end",
      contentIndex: 0,
      content: "all done here",
    });
    // turn_end and agent_end carry whole messages, as pi's do.
    expect((await h.client.event("agent_end")).messages.at(-1).content).toEqual([
      { type: "text", text: "all done here" },
    ]);
    expect(
      updates.find((u) => u.assistantMessageEvent.type === "toolcall_end")!.assistantMessageEvent.toolCall,
    ).toMatchObject({ id: "call-1", arguments: { path: "a.txt" } });
    const ends = h.client.records.filter((r) => r.type === "message_end" && r.message.role === "assistant");
    expect(ends.at(-1)!.message.content).toEqual([{ type: "text", text: "all done here" }]);
    // Events never carry an id; only responses do.
    expect(
      h.client.records.filter((r) => r.type !== "response" && "id" in r && r.type !== "extension_ui_request"),
    ).toEqual([]);
  });

  it("--compat-events sends pi 0.73's shape: the partial message in every update", async () => {
    const h = (harness = await startRpc({
      faux: { responses: [{ content: "hello world" }] },
      input: { compatEvents: true },
    }));
    await h.client.request({ type: "prompt", message: "hi" });
    await h.client.event("agent_end");
    const update = h.client.records.find(
      (r) => r.type === "message_update" && r.assistantMessageEvent.type === "text_end",
    )!;
    expect(update.message).toMatchObject({ role: "assistant", content: [{ type: "text", text: "hello world" }] });
    expect(update.assistantMessageEvent).toMatchObject({
      type: "text_end",
      content: "hello world",
      partial: { role: "assistant" },
    });
    expect((await h.client.event("agent_end")).messages[1].content).toEqual([{ type: "text", text: "hello world" }]);
  });

  it("a refused prompt gets success:false and one line; a prompt without a message says which field is missing", async () => {
    const h = (harness = await startRpc({ faux: { responses: [] } }));
    expect(await h.client.request({ type: "prompt" })).toMatchObject({
      command: "prompt",
      success: false,
      error: '"prompt" needs "message" as a string',
    });
    expect(await h.client.request({ type: "prompt", message: "x", streamingBehavior: "later" })).toMatchObject({
      success: false,
      error: '"prompt" needs "streamingBehavior" as one of "steer", "followUp"',
    });
    expect(await h.client.request({ type: "prompt", message: "x", images: [{ type: "image" }] })).toMatchObject({
      success: false,
      error: expect.stringMatching(/images\[0\] must be/),
    });
  });

  it("while a run goes on: a bare prompt is refused, streamingBehavior queues it, steer and follow_up are delivered", async () => {
    const { tool, release } = gate();
    const h = (harness = await startRpc({
      faux: {
        responses: [
          { content: [fauxToolCall("wait", {}, "w1")] },
          { content: "after steering" },
          { content: "after follow-up" },
        ],
      },
      tools: [tool],
    }));
    expect(await h.client.request({ type: "prompt", message: "go" })).toMatchObject({ success: true });
    await h.client.event("tool_execution_start");
    expect(await h.client.request({ type: "prompt", message: "again" })).toMatchObject({
      success: false,
      error: expect.stringMatching(/already working/),
    });
    expect(await h.client.request({ type: "steer", message: "turn left" })).toEqual({
      id: "req-3",
      type: "response",
      command: "steer",
      success: true,
      data: { disposition: "queued" },
    });
    expect(await h.client.request({ type: "follow_up", message: "then summarize" })).toEqual({
      id: "req-4",
      type: "response",
      command: "follow_up",
      success: true,
      data: { disposition: "queued" },
    });
    expect(await h.client.request({ type: "prompt", message: "also this", streamingBehavior: "followUp" })).toEqual({
      id: "req-5",
      type: "response",
      command: "prompt",
      success: true,
      data: { disposition: "queued" },
    });
    expect(h.client.records.filter((r) => r.type === "queue_update").at(-1)).toEqual({
      type: "queue_update",
      steering: ["turn left"],
      followUp: ["then summarize", "also this"],
    });
    expect((await h.client.request({ type: "get_state" })).data.pendingMessageCount).toBe(3);
    release();
    await h.client.event("agent_end");
    const lastUser = (i: number) => h.faux.requests[i]!.context.messages.filter((m) => m.role === "user").at(-1);
    expect(lastUser(1)).toMatchObject({ content: "turn left" });
    expect(lastUser(2)).toMatchObject({ content: "then summarize" });
    // One run for all of it, settled once.
    expect(h.client.records.filter((r) => r.type === "agent_start")).toHaveLength(1);
    expect(await h.client.event("agent_settled")).toEqual({ type: "agent_settled", aborted: false });
  });

  it("abort stops the run; its response comes after the run's agent_end", async () => {
    const h = (harness = await startRpc({
      faux: { responses: [{ content: [fauxToolCall("forever", {}, "f1")] }] },
      tools: [untilAborted],
    }));
    await h.client.request({ type: "prompt", message: "go" });
    await h.client.event("tool_execution_start");
    const response = await h.client.request({ type: "abort" });
    expect(response).toEqual({ id: "req-2", type: "response", command: "abort", success: true });
    const end = h.client.records.findIndex((r) => r.type === "agent_end");
    expect(end).toBeGreaterThan(-1);
    expect(end).toBeLessThan(h.client.records.indexOf(response));
    // agent_settled (aborted) comes before the abort's response too, so a client waiting on either sees both.
    const settled = h.client.records.findIndex((r) => r.type === "agent_settled");
    expect(h.client.records[settled]).toEqual({ type: "agent_settled", aborted: true });
    expect(settled).toBeLessThan(h.client.records.indexOf(response));
    expect((await h.client.request({ type: "get_state" })).data.isStreaming).toBe(false);
    // Only the first request was made: the run did not go on after the aborted tool.
    expect(h.faux.requests).toHaveLength(1);
  });

  it("clear_queue empties both queues and returns their text; the run goes on without them", async () => {
    const { tool, release } = gate();
    const h = (harness = await startRpc({
      faux: { responses: [{ content: [fauxToolCall("wait", {}, "w1")] }, { content: "done" }] },
      tools: [tool],
    }));
    await h.client.request({ type: "prompt", message: "go" });
    await h.client.event("tool_execution_start");
    await h.client.request({ type: "steer", message: "left" });
    await h.client.request({ type: "follow_up", message: "then right" });
    expect(await h.client.request({ type: "clear_queue" })).toEqual({
      id: "req-4",
      type: "response",
      command: "clear_queue",
      success: true,
      data: { steering: ["left"], followUp: ["then right"] },
    });
    expect(h.client.records.filter((r) => r.type === "queue_update").at(-1)).toEqual({
      type: "queue_update",
      steering: [],
      followUp: [],
    });
    expect((await h.client.request({ type: "clear_queue" })).data).toEqual({ steering: [], followUp: [] });
    release();
    expect(await h.client.event("agent_settled")).toEqual({ type: "agent_settled", aborted: false });
    expect(h.faux.requests).toHaveLength(2);
    const users = h.faux.requests[1]!.context.messages.filter((m) => m.role === "user");
    expect(users.map((m) => m.content)).toEqual(["go"]);
  });

  it("prompts sent back to back each answer; the second one is refused while the first runs", async () => {
    const { tool, release } = gate();
    const h = (harness = await startRpc({
      faux: { responses: [{ content: [fauxToolCall("wait", {}, "w1")] }, { content: "ok" }] },
      tools: [tool],
    }));
    const first = h.client.request({ type: "prompt", message: "one" });
    const second = h.client.request({ type: "prompt", message: "two" });
    expect(await first).toMatchObject({ success: true });
    expect(await second).toMatchObject({ success: false, error: expect.stringMatching(/already working/) });
    release();
    await h.client.event("agent_end");
  });
});
