/**
 * `pi --mode acp` in-process: the mode runs on PassThrough streams over the real agent session stack with
 * the scripted faux provider, and a test client built on the ACP SDK's client app drives it as an editor
 * would — initialize, create a session, prompt, answer permission requests, cancel.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxText, fauxThinking, fauxToolCall, type FauxRequest } from "../../../plugins/ai/provider-faux/faux.js";
import { choose, startAcp, type AcpHarness } from "./acp-harness.js";

let harness: AcpHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** The text the model read as the result of the last tool call in a request. */
function lastToolResultText(request: FauxRequest): string {
  const result = [...request.context.messages].reverse().find((m): m is ToolResultMessage => m.role === "toolResult");
  return result?.content.map((b) => (b.type === "text" ? b.text : "")).join("") ?? "";
}

/** Chunks of one kind joined, e.g. the whole streamed answer. */
function joined(
  updates: SessionUpdate[],
  kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk",
): string {
  return updates
    .filter((u) => u.sessionUpdate === kind)
    .map((u) =>
      (u as { content: { type: string; text?: string } }).content.type === "text" ? (u as any).content.text : "",
    )
    .join("");
}

/** A compact trace: chunks folded into one entry per run, tool updates with their status. */
function trace(updates: SessionUpdate[]): string[] {
  const out: string[] = [];
  for (const u of updates) {
    let name: string = u.sessionUpdate;
    if (u.sessionUpdate === "tool_call") name = `tool_call:${u.status}`;
    if (u.sessionUpdate === "tool_call_update")
      name = `tool_call_update:${u.status ?? (u.rawInput !== undefined ? "input" : "content")}`;
    if (name.endsWith("_chunk") && out.at(-1) === name) continue;
    out.push(name);
  }
  return out;
}

const WRITE_TURN = {
  content: [
    fauxThinking("The user wants a file."),
    fauxText("I will write it now."),
    fauxToolCall("write", { path: "notes/out.txt", content: "hello from acp\n" }, "call-write-1"),
  ],
};

describe("ACP mode (in-process, SDK test client)", () => {
  it("initialize negotiates protocol version 1 and advertises session loading, images and embedded context", async () => {
    harness = await startAcp();
    const response = await harness.client.initialize(1);
    expect(response).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
      },
      authMethods: [],
      agentInfo: { name: "pi-host" },
    });
    // A client asking for a version pi does not speak gets the one it does.
    expect((await harness.client.initialize(7)).protocolVersion).toBe(1);
  });

  it("creates a session in the agent's folder and refuses a session for another folder", async () => {
    harness = await startAcp();
    await harness.client.initialize();
    const sessionId = await harness.client.newSession(harness.cwd);
    expect(sessionId).toBe(harness.session.call("state").sessionId);
    const elsewhere = mkdtempSync(join(tmpdir(), "pi-acp-elsewhere-"));
    await expect(harness.client.newSession(elsewhere)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(`start "pi --mode acp" in ${elsewhere}`),
    });
    await expect(harness.client.newSession("relative/dir")).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("absolute path"),
    });
  });

  it("streams thinking, text and a write call in order; the client allows it, the tool runs, the turn ends", async () => {
    harness = await startAcp({ faux: { responses: [WRITE_TURN, { content: "Done: notes/out.txt written." }] } });
    harness.client.answers.push(choose("allow_once"));
    await harness.client.initialize();
    const sessionId = await harness.client.newSession(harness.cwd);

    const response = await harness.client.prompt(sessionId, "write a note");
    expect(response).toEqual({ stopReason: "end_turn" });

    const updates = harness.client.updatesOf(sessionId);
    expect(trace(updates)).toEqual([
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call:pending",
      "tool_call_update:input",
      "tool_call_update:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk",
    ]);
    expect(joined(updates, "agent_thought_chunk")).toBe("The user wants a file.");
    expect(joined(updates, "agent_message_chunk")).toBe("I will write it now.Done: notes/out.txt written.");
    // Streamed as deltas: more than one chunk for the thinking and the first answer.
    expect(updates.filter((u) => u.sessionUpdate === "agent_thought_chunk").length).toBeGreaterThan(1);

    const path = join(harness.cwd, "notes/out.txt");
    const announced = updates.find((u) => u.sessionUpdate === "tool_call");
    expect(announced).toMatchObject({ toolCallId: "call-write-1", kind: "edit", status: "pending" });
    const input = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.rawInput !== undefined);
    expect(input).toMatchObject({
      toolCallId: "call-write-1",
      title: `write ${path}`,
      rawInput: { path: "notes/out.txt", content: "hello from acp\n" },
      locations: [{ path }],
      content: [{ type: "diff", path, oldText: null, newText: "hello from acp\n" }],
    });
    const completed = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(completed).toMatchObject({
      toolCallId: "call-write-1",
      content: [
        { type: "diff", path },
        { type: "content", content: { type: "text", text: expect.stringContaining("Successfully wrote") } },
      ],
    });

    const [request] = harness.client.permissionRequests.items;
    expect(request).toMatchObject({
      sessionId,
      toolCall: {
        toolCallId: "call-write-1",
        title: `write ${path}`,
        kind: "edit",
        content: [{ type: "diff", path, newText: "hello from acp\n" }],
      },
      options: expect.arrayContaining([
        expect.objectContaining({ kind: "allow_once" }),
        expect.objectContaining({ kind: "reject_once" }),
      ]),
    });
    expect(readFileSync(path, "utf8")).toBe("hello from acp\n");
    expect(harness.stderr()).toBe("");
  });

  it("a rejected permission blocks the call and the model reads the reason as the call's result", async () => {
    harness = await startAcp({
      faux: { responses: [WRITE_TURN, (request) => ({ content: `The tool said: ${lastToolResultText(request)}` })] },
    });
    harness.client.answers.push(choose("reject_once"));
    await harness.client.initialize();
    const sessionId = await harness.client.newSession(harness.cwd);

    expect(await harness.client.prompt(sessionId, "write a note")).toEqual({ stopReason: "end_turn" });
    const reason = lastToolResultText(harness.faux.requests[1]!);
    expect(reason).toBe("The user rejected this write call, so it was not run.");
    expect(existsSync(join(harness.cwd, "notes/out.txt"))).toBe(false);

    const updates = harness.client.updatesOf(sessionId);
    expect(trace(updates)).toEqual([
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call:pending",
      "tool_call_update:input",
      "tool_call_update:failed",
      "agent_message_chunk",
    ]);
    expect(updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed")).toMatchObject({
      content: [{ type: "content", content: { type: "text", text: reason } }],
    });
  });

  it("cancel during a paced stream ends the prompt with stopReason cancelled", async () => {
    harness = await startAcp({ faux: { tokensPerSecond: 50, responses: [{ content: "word ".repeat(400) }] } });
    await harness.client.initialize();
    const sessionId = await harness.client.newSession(harness.cwd);

    const prompt = harness.client.prompt(sessionId, "talk for a long time");
    await harness.client.updates.next(
      (n) => n.sessionId === sessionId && n.update.sessionUpdate === "agent_message_chunk",
    );
    await harness.client.agent.notify("session/cancel", { sessionId });
    expect(await prompt).toEqual({ stopReason: "cancelled" });

    const streamed = joined(harness.client.updatesOf(sessionId), "agent_message_chunk");
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.length).toBeLessThan("word ".repeat(400).length);
    const last = harness.session.call("messages").at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });
});
