import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_EVENT, type SessionEvent } from "../../../contracts/agent-session.js";
import modeJson from "../../../plugins/modes/mode-json/index.js";
import { fauxText, fauxThinking, fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, testTool, type SessionHarness } from "../agent-session/harness.js";
import { runMode, testIO, type TestIO } from "../mode-print/mode-io.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** Every output line parsed; fails if any line is not whole JSON. */
function lines(io: TestIO): any[] {
  const text = io.stdout.text;
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line));
}

/**
 * What a client does with the delta stream: start from message_start, apply each update at its
 * contentIndex, and compare with message_end. Returns the rebuilt messages and the ended ones.
 */
function rebuild(events: any[]): { rebuilt: any[]; ended: any[] } {
  const rebuilt: any[] = [];
  const ended: any[] = [];
  let current: any;
  const json: Record<number, string> = {};
  for (const event of events) {
    if (event.type === "message_start" && event.message.role === "assistant") current = structuredClone(event.message);
    if (event.type === "message_update") {
      const e = event.assistantMessageEvent;
      expect(event.message).toBeUndefined();
      expect(event.usage).toMatchObject({ totalTokens: expect.any(Number) });
      if (e.type === "text_start") current.content[e.contentIndex] = { type: "text", text: "" };
      if (e.type === "text_delta") current.content[e.contentIndex].text += e.delta;
      if (e.type === "thinking_start") current.content[e.contentIndex] = { type: "thinking", thinking: "" };
      if (e.type === "thinking_delta") current.content[e.contentIndex].thinking += e.delta;
      if (e.type === "toolcall_start") {
        current.content[e.contentIndex] = { type: "toolCall", id: e.id, name: e.toolName, arguments: {} };
        json[e.contentIndex] = "";
      }
      if (e.type === "toolcall_delta") json[e.contentIndex] += e.delta;
      if (e.type === "toolcall_end") current.content[e.contentIndex].arguments = JSON.parse(json[e.contentIndex]!);
    }
    if (event.type === "message_end" && event.message.role === "assistant") {
      rebuilt.push(current);
      ended.push(event.message);
    }
  }
  return { rebuilt, ended };
}

describe("mode-json", () => {
  it("writes the session header, then pi's events with deltas from which a client rebuilds every message", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [
          {
            content: [
              fauxThinking("let me look"),
              fauxText("Looking."),
              fauxToolCall("look", { path: "a.txt", depth: 2 }, "call_1"),
            ],
          },
          { content: "It says hi." },
        ],
      },
      tools: [testTool("look", async () => "hi")],
      extra: [modeJson],
    }));
    const io = testIO();
    expect(await runMode(h.kernel, "json", { messages: ["what is in a.txt?"] }, io)).toBe(0);
    const events = lines(io);
    const state = h.session.call("state");
    expect(events[0]).toEqual({
      type: "session",
      version: 3,
      id: state.sessionId,
      timestamp: expect.any(String),
      cwd: h.cwd,
    });
    const types = events.slice(1).map((e) => e.type);
    expect(types[0]).toBe("agent_start");
    expect(types.slice(-2)).toEqual(["agent_end", "agent_settled"]);
    for (const t of [
      "turn_start",
      "message_start",
      "message_update",
      "message_end",
      "tool_execution_start",
      "tool_execution_end",
      "turn_end",
    ])
      expect(types).toContain(t);
    // Only pi's event names: our bus-only events stay off stdout.
    expect(types.filter((t) => ["session_change", "model_change", "notice"].includes(t))).toEqual([]);

    const updates = events.filter((e) => e.type === "message_update");
    // pi 1.6.0's shape: no cumulative message, no partial; text_end keeps its content; toolcall_start names the call.
    for (const u of updates) {
      expect(u.assistantMessageEvent.partial).toBeUndefined();
      expect(Object.keys(u)).toEqual(["type", "usage", "assistantMessageEvent"]);
    }
    const textEnd = updates.find((u) => u.assistantMessageEvent.type === "text_end");
    expect(textEnd.assistantMessageEvent).toEqual({ type: "text_end", contentIndex: 1, content: "Looking." });
    const toolStart = updates.find((u) => u.assistantMessageEvent.type === "toolcall_start");
    expect(toolStart.assistantMessageEvent).toEqual({
      type: "toolcall_start",
      contentIndex: 2,
      id: "call_1",
      toolName: "look",
    });

    const { rebuilt, ended } = rebuild(events);
    expect(ended).toHaveLength(2);
    expect(rebuilt.map((m) => m.content)).toEqual(ended.map((m) => m.content));
    expect(ended[1].content).toEqual([{ type: "text", text: "It says hi." }]);

    // turn_end and agent_end carry whole messages, as pi's do.
    const turnEnd = events.find((e) => e.type === "turn_end");
    expect(turnEnd).toEqual({
      type: "turn_end",
      message: ended[0],
      toolResults: [
        expect.objectContaining({ role: "toolResult", toolCallId: "call_1", content: [{ type: "text", text: "hi" }] }),
      ],
    });
    const agentEnd = events.find((e) => e.type === "agent_end");
    expect(agentEnd.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(agentEnd.messages[3]).toEqual(ended[1]);
    expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
  });

  it("--compat-events writes pi 0.73's shape: the whole partial message in every update", async () => {
    const h = (harness = await bootSession({ faux: { responses: [{ content: "Hello there" }] }, extra: [modeJson] }));
    const seen: string[] = [];
    h.kernel.on(SESSION_EVENT, (e: SessionEvent) => {
      if (!["session_change", "model_change", "notice"].includes(e.type)) seen.push(JSON.stringify(e));
    });
    const io = testIO();
    expect(await runMode(h.kernel, "json", { messages: ["hi"], compatEvents: true }, io)).toBe(0);
    const events = lines(io);
    expect(events[0].type).toBe("session");
    expect(events.slice(1)).toEqual(seen.map((s) => JSON.parse(s)));
    const deltas = events.filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(1);
    const last = deltas.at(-1);
    expect(last.message.content).toEqual([{ type: "text", text: "Hello there" }]);
    expect(last.assistantMessageEvent.partial).toEqual(last.message);
    expect(events.find((e) => e.type === "agent_end").messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
  });

  it("a 2,000-token answer: deltas merge into few lines, well under 300 KB; pi 0.73's shape is quadratic", async () => {
    const answer = Array.from({ length: 2000 }, (_, i) => `w${String(i % 1000).padStart(3, "0")}`).join("");
    const h = (harness = await bootSession({
      faux: { responses: [{ content: answer }, { content: answer }] },
      extra: [modeJson],
    }));
    const io = testIO();
    expect(await runMode(h.kernel, "json", { messages: ["write"] }, io)).toBe(0);
    const events = lines(io);
    const { rebuilt } = rebuild(events);
    expect(rebuilt[0].content).toEqual([{ type: "text", text: answer }]);
    const bytes = Buffer.byteLength(io.stdout.text);
    // The text five times (deltas, text_end, message_end, turn_end, agent_end), plus small change per line.
    expect(bytes).toBeLessThan(5 * answer.length + 250 * events.length);
    expect(bytes).toBeLessThan(300_000);

    const compat = testIO();
    expect(await runMode(h.kernel, "json", { messages: ["again"], compatEvents: true }, compat)).toBe(0);
    // pi's shape repeats the growing message in each of the 2,000 updates: megabytes, not kilobytes.
    expect(Buffer.byteLength(compat.stdout.text)).toBeGreaterThan(1000 * answer.length);
  });

  it("frames every event as one whole LF-terminated write; U+2028 and U+2029 are escaped, the text survives", async () => {
    const tricky = 'line\u2028separator\u2029paragraph\nnewline "quoted" \\ back';
    const h = (harness = await bootSession({ faux: { responses: [{ content: tricky }] }, extra: [modeJson] }));
    const io = testIO();
    expect(await runMode(h.kernel, "json", { messages: ["go"] }, io)).toBe(0);
    for (const write of io.stdout.writes) {
      expect(write.endsWith("\n")).toBe(true);
      expect(write.indexOf("\n")).toBe(write.length - 1);
      expect(write).not.toMatch(/[\u2028\u2029]/);
    }
    const end = lines(io).find((e) => e.type === "message_end" && e.message.role === "assistant");
    expect(end.message.content[0].text).toBe(tricky);
  });

  it("the header of an opened session is the file's own first line", async () => {
    const first = (harness = await bootSession({ faux: { responses: [{ content: "one" }] } }));
    await first.session.call("prompt", "hi");
    const file = first.session.call("state").sessionFile!;
    await first.kernel.shutdown();
    const h = (harness = await bootSession({
      agentDir: first.agentDir,
      cwd: first.cwd,
      config: { session: file },
      faux: { responses: [{ content: "two" }] },
      extra: [modeJson],
    }));
    const io = testIO();
    expect(await runMode(h.kernel, "json", { messages: ["again"] }, io)).toBe(0);
    expect(lines(io)[0]).toEqual(JSON.parse(readFileSync(file, "utf8").split("\n")[0]!));
  });

  it("an in-memory session (--no-session) still gets a header; an error answer exits 1", async () => {
    const h = (harness = await bootSession({
      config: { session: "none" },
      faux: { responses: [{ stopReason: "error", errorMessage: "400 bad request" }] },
      extra: [modeJson],
    }));
    const io = testIO();
    expect(await runMode(h.kernel, "json", { messages: ["hi"] }, io)).toBe(1);
    const events = lines(io);
    expect(events[0]).toMatchObject({ type: "session", version: 3, cwd: h.cwd });
    expect(events.find((e) => e.type === "message_end" && e.message.role === "assistant").message).toMatchObject({
      stopReason: "error",
      errorMessage: "400 bad request",
    });
    expect(h.session.call("state").sessionFile).toBeUndefined();
  });

  it("a refused prompt is one line on stderr, after the header, exit 1", async () => {
    const h = (harness = await bootSession({ config: { model: "faux/nope" }, extra: [modeJson] }));
    const io = testIO();
    expect(await runMode(h.kernel, "json", { messages: ["hi"] }, io)).toBe(1);
    expect(lines(io).map((e) => e.type)).toEqual(["session"]);
    expect(io.stderr.text).toBe('unknown model "faux/nope"\n');
  });
});
