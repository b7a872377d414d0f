import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../contracts/agent-session.js";
import { emptyUsage, newAssistantMessage } from "../../kit/ai/stream.js";
import { eventRecord } from "../../kit/session/wire-events.js";
import { WireStream } from "../../kit/session/wire-stream.js";

const model = { id: "m", name: "m", api: "faux", provider: "faux" } as any;

/** A streaming answer's session events over one partial message, as the loop publishes them. */
function answer() {
  const partial = newAssistantMessage(model);
  const update = (assistantMessageEvent: any): SessionEvent =>
    ({ type: "message_update", message: partial, assistantMessageEvent: { ...assistantMessageEvent, partial } }) as any;
  return { partial, update };
}

describe("eventRecord (pi 1.6.0's wire shape)", () => {
  it("a message_update loses the cumulative message and partial, gains the usage; toolcall_start names the call", () => {
    const { partial, update } = answer();
    partial.usage = { ...emptyUsage(), input: 7, totalTokens: 7 };
    partial.content.push({ type: "toolCall", id: "c1", name: "read", arguments: {} });
    expect(eventRecord(update({ type: "toolcall_start", contentIndex: 0 }), false)).toEqual({
      type: "message_update",
      usage: partial.usage,
      assistantMessageEvent: { type: "toolcall_start", contentIndex: 0, id: "c1", toolName: "read" },
    });
    expect(eventRecord(update({ type: "text_end", contentIndex: 1, content: "hi" }), false)).toMatchObject({
      assistantMessageEvent: { type: "text_end", contentIndex: 1, content: "hi" },
    });
    const turnEnd = { type: "turn_end", message: partial, toolResults: [] } as unknown as SessionEvent;
    expect(eventRecord(turnEnd, false)).toBe(turnEnd);
    const compat = update({ type: "text_delta", contentIndex: 1, delta: "x" });
    expect(eventRecord(compat, true)).toBe(compat);
  });
});

describe("WireStream", () => {
  it("merges deltas of one block that come together; any other record flushes them first, in order", () => {
    const { update } = answer();
    const out: any[] = [];
    const wire = new WireStream((r) => out.push(JSON.parse(JSON.stringify(r))), { compatEvents: false });
    wire.event(update({ type: "text_delta", contentIndex: 0, delta: "Hel" }));
    wire.event(update({ type: "text_delta", contentIndex: 0, delta: "lo" }));
    wire.event(update({ type: "text_delta", contentIndex: 1, delta: "other" }));
    expect(out.map((r) => r.assistantMessageEvent.delta)).toEqual(["Hello"]);
    wire.record({ type: "response", command: "get_state", success: true });
    wire.event(update({ type: "thinking_delta", contentIndex: 2, delta: "a" }));
    wire.flush();
    expect(out.map((r) => r.assistantMessageEvent?.delta ?? r.type)).toEqual(["Hello", "other", "response", "a"]);
  });

  it("a slow stream's line waits past the window for minCount deltas, but never past maxWaitMs", async () => {
    const { update } = answer();
    const out: any[] = [];
    const wire = new WireStream((r: any) => out.push(r.assistantMessageEvent.delta), {
      compatEvents: false,
      windowMs: 10,
      minCount: 3,
      maxWaitMs: 1000,
    });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    wire.event(update({ type: "text_delta", contentIndex: 0, delta: "a" }));
    await sleep(30);
    wire.event(update({ type: "text_delta", contentIndex: 0, delta: "b" }));
    await sleep(30);
    // Past the window with two deltas: still waiting for the third.
    expect(out).toEqual([]);
    wire.event(update({ type: "text_delta", contentIndex: 0, delta: "c" }));
    // The third delta, after the window: the line goes out at once.
    expect(out).toEqual(["abc"]);
    wire.event(update({ type: "text_delta", contentIndex: 0, delta: "d" }));
    await sleep(100);
    expect(out).toEqual(["abc"]);
    // A lone delta goes out when the longest wait ends.
    await sleep(1100);
    expect(out).toEqual(["abc", "d"]);
  });

  it("a lone delta goes out when the wait ends; compat events and windowMs 0 are never merged", async () => {
    const { update } = answer();
    const out: any[] = [];
    const wire = new WireStream((r) => out.push(r), { compatEvents: false, windowMs: 5, maxWaitMs: 10 });
    wire.event(update({ type: "text_delta", contentIndex: 0, delta: "x" }));
    expect(out).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(out).toHaveLength(1);
    for (const options of [{ compatEvents: true }, { compatEvents: false, windowMs: 0 }]) {
      const each: any[] = [];
      const unmerged = new WireStream((r) => each.push(r), options);
      unmerged.event(update({ type: "text_delta", contentIndex: 0, delta: "a" }));
      unmerged.event(update({ type: "text_delta", contentIndex: 0, delta: "b" }));
      expect(each).toHaveLength(2);
    }
  });
});
