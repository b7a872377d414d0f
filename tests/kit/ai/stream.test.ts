import { describe, expect, it } from "vitest";
import {
  AssistantEventStream,
  emptyUsage,
  newAssistantMessage,
  parsePartialJson,
  priceUsage,
  type AssistantMessageEvent,
  type Model,
} from "../../../hosts/api.js";

const model: Pick<Model, "api" | "provider" | "id" | "cost"> = {
  api: "anthropic-messages",
  provider: "anthropic",
  id: "claude-x",
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

describe("parsePartialJson", () => {
  it("parses whole objects and answers {} for anything that is not an object", () => {
    expect(parsePartialJson('{"a": 1, "b": [true, null], "c": {"d": "e"}}')).toEqual({
      a: 1,
      b: [true, null],
      c: { d: "e" },
    });
    expect(parsePartialJson("")).toEqual({});
    expect(parsePartialJson("   ")).toEqual({});
    expect(parsePartialJson("[1, 2]")).toEqual({});
    expect(parsePartialJson('"text"')).toEqual({});
    expect(parsePartialJson("42")).toEqual({});
    expect(parsePartialJson("null")).toEqual({});
  });

  it("closes strings, arrays and objects cut off mid-stream", () => {
    expect(parsePartialJson("{")).toEqual({});
    expect(parsePartialJson('{"path": "src/ind')).toEqual({ path: "src/ind" });
    expect(parsePartialJson('{"a": [1, 2')).toEqual({ a: [1, 2] });
    expect(parsePartialJson('{"a": {"b": 1}, "c": [{"d": "e')).toEqual({ a: { b: 1 }, c: [{ d: "e" }] });
    expect(parsePartialJson('{"path": "src/index.ts", "lines": [1,')).toEqual({ path: "src/index.ts", lines: [1] });
    expect(parsePartialJson('{"n": 1.5e')).toEqual({ n: 1.5 });
  });

  it("drops a dangling key, colon or comma that cannot be completed yet", () => {
    expect(parsePartialJson('{"a"')).toEqual({});
    expect(parsePartialJson('{"a":')).toEqual({});
    expect(parsePartialJson('{"a": 1,')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": "x", "b')).toEqual({ a: "x" });
    expect(parsePartialJson('{"a": "x", "b":')).toEqual({ a: "x" });
    expect(parsePartialJson('{"x": 1, "n": -')).toEqual({ x: 1 });
    expect(parsePartialJson('{"x": 1, "flag": nul')).toEqual({ x: 1 });
  });

  it("keeps escaped quotes inside strings", () => {
    expect(parsePartialJson('{"q": "say \\"hi')).toEqual({ q: 'say "hi' });
    expect(parsePartialJson('{"q": "a\\\\b", "r": "c')).toEqual({ q: "a\\b", r: "c" });
    expect(parsePartialJson('{"brace": "}{][", "next": "x')).toEqual({ brace: "}{][", next: "x" });
  });

  it("grows monotonically as a real tool-call argument stream arrives", () => {
    const full = JSON.stringify({ command: "ls -la", cwd: "/tmp", env: { A: "1" }, timeout: 30 });
    let keys = 0;
    for (let i = 1; i <= full.length; i++) {
      const parsed = parsePartialJson(full.slice(0, i));
      expect(Object.keys(parsed).length).toBeGreaterThanOrEqual(keys);
      keys = Object.keys(parsed).length;
    }
    expect(parsePartialJson(full)).toEqual(JSON.parse(full));
  });

  // Cases that once lost data that had already arrived.
  it("keeps earlier keys while a longer literal (false) is still arriving", () => {
    expect(parsePartialJson('{"x": 1, "flag": fals')).toEqual({ x: 1 });
  });
  it("keeps earlier keys while a \\u escape is still arriving", () => {
    expect(parsePartialJson('{"x": 1, "y": "\\u00')).toEqual({ x: 1, y: "" });
  });
  it("does not turn a dangling escape into a literal backslash", () => {
    expect(parsePartialJson('{"s": "a\\')).toEqual({ s: "a" });
  });
});

describe("AssistantEventStream", () => {
  const start = (): AssistantMessageEvent => ({ type: "start", partial: newAssistantMessage(model) });

  it("delivers events in order to a consumer that was already waiting, then ends after done", async () => {
    const stream = new AssistantEventStream();
    const seen: string[] = [];
    const consumer = (async () => {
      for await (const event of stream) seen.push(event.type);
    })();
    const message = newAssistantMessage(model);
    stream.push(start());
    stream.push({ type: "text_start", contentIndex: 0, partial: message });
    stream.push({ type: "text_delta", contentIndex: 0, delta: "hi", partial: message });
    stream.push({ type: "done", reason: "stop", message });
    await consumer;
    expect(seen).toEqual(["start", "text_start", "text_delta", "done"]);
    expect(await stream.result()).toBe(message);
  });

  it("buffers events pushed before anyone reads, and drops events after the end", async () => {
    const stream = new AssistantEventStream();
    const failed = { ...newAssistantMessage(model), stopReason: "error" as const, errorMessage: "boom" };
    stream.push(start());
    stream.push({ type: "error", reason: "error", error: failed });
    stream.push({ type: "done", reason: "stop", message: newAssistantMessage(model) });
    stream.push(start());
    const seen: AssistantMessageEvent[] = [];
    for await (const event of stream) seen.push(event);
    expect(seen.map((e) => e.type)).toEqual(["start", "error"]);
    expect(await stream.result()).toBe(failed); // result() resolves on error too; it never rejects
  });

  it("lets a consumer stop early without breaking result()", async () => {
    const stream = new AssistantEventStream();
    stream.push(start());
    for await (const event of stream) {
      expect(event.type).toBe("start");
      break;
    }
    const message = newAssistantMessage(model);
    stream.push({ type: "done", reason: "length", message });
    expect(await stream.result()).toBe(message);
  });
});

describe("usage helpers", () => {
  it("emptyUsage is all zeros and fresh each time", () => {
    const a = emptyUsage();
    expect(a).toEqual({
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    });
    a.cost.input = 5;
    expect(emptyUsage().cost.input).toBe(0);
  });

  it("newAssistantMessage starts an empty assistant message for the model", () => {
    const message = newAssistantMessage(model);
    expect(message).toMatchObject({
      role: "assistant",
      content: [],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-x",
      stopReason: "stop",
    });
    expect(newAssistantMessage(model, "openai-completions").api).toBe("openai-completions");
    expect(typeof message.timestamp).toBe("number");
  });

  it("priceUsage prices each kind of token per million and sums tokens and cost", () => {
    const usage = { ...emptyUsage(), input: 1_000_000, output: 200_000, cacheRead: 500_000, cacheWrite: 100_000 };
    const priced = priceUsage(usage, model);
    expect(priced).toBe(usage);
    expect(priced.cost.input).toBeCloseTo(3);
    expect(priced.cost.output).toBeCloseTo(3);
    expect(priced.cost.cacheRead).toBeCloseTo(0.15);
    expect(priced.cost.cacheWrite).toBeCloseTo(0.375);
    expect(priced.cost.total).toBeCloseTo(6.525);
    expect(priced.totalTokens).toBe(1_800_000);
    expect(priceUsage(emptyUsage(), model).cost.total).toBe(0);
  });
});
