/**
 * Prompt turns in detail: what the model receives from ACP content blocks, which calls ask for permission
 * and how answers are remembered, streamed tool output, every stop reason, and the run's lifecycle (stdout
 * carries only JSON-RPC; closing stdin or the host's stop cancels the running prompt; exit code 0).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentTool } from "../../../contracts/tool.js";
import { Type } from "@sinclair/typebox";
import codemode from "../../../plugins/integrations/codemode/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { testTool } from "../agent-session/harness.js";
import { choose, startAcp, type AcpHarness } from "./acp-harness.js";

let harness: AcpHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

async function ready(options: Parameters<typeof startAcp>[0] = {}): Promise<{ h: AcpHarness; sessionId: string }> {
  harness = await startAcp(options);
  await harness.client.initialize();
  return { h: harness, sessionId: await harness.client.newSession(harness.cwd) };
}

/** A tool that streams two partial outputs before it returns. */
const streaming: AgentTool<any, any> = {
  name: "progress",
  description: "reports progress",
  parameters: Type.Object({}),
  async execute(_id, _args, _signal, onUpdate) {
    onUpdate?.({ content: [{ type: "text", text: "step 1" }] });
    onUpdate?.({ content: [{ type: "text", text: "step 1\nstep 2" }] });
    return { content: [{ type: "text", text: "all steps done" }] };
  },
};

describe("ACP prompts", () => {
  it("text, embedded resources, resource links and images reach the model as one user message", async () => {
    const { h, sessionId } = await ready({ faux: { responses: [{ content: "seen" }] } });
    const image = Buffer.from("fake png").toString("base64");
    await h.client.prompt(sessionId, [
      { type: "text", text: "Review this:" },
      {
        type: "resource",
        resource: { uri: "file:///work/src/a%20b.ts", text: "export const a = 1;", mimeType: "text/typescript" },
      },
      { type: "resource_link", uri: "file:///work/README.md", name: "README.md" },
      { type: "image", data: image, mimeType: "image/png" },
    ]);
    const user = h.faux.requests[0]!.context.messages.at(-1)!;
    expect(user).toMatchObject({
      role: "user",
      content: [
        {
          type: "text",
          text: 'Review this:\n\n<file name="/work/src/a b.ts">\nexport const a = 1;\n</file>\n\nReferenced file: /work/README.md',
        },
        { type: "image", data: image, mimeType: "image/png" },
      ],
    });
  });

  it("an audio block is refused with invalid params and nothing is sent to the model", async () => {
    const { h, sessionId } = await ready();
    await expect(
      h.client.prompt(sessionId, [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }]),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("audio prompts are not supported") });
    expect(h.faux.requests).toHaveLength(0);
  });

  it("tools off the ask list run without a permission request; allow_always is remembered for the session", async () => {
    const write = (n: number) => fauxToolCall("write", { path: `f${n}.txt`, content: String(n) }, `w${n}`);
    const { h, sessionId } = await ready({
      tools: [testTool("lookup", async () => "found")],
      faux: {
        responses: [
          { content: [fauxToolCall("lookup", {}, "l1"), write(1)] },
          { content: "ok" },
          { content: [write(2)] },
          { content: "ok again" },
        ],
      },
    });
    h.client.answers.push(choose("allow_always"));
    expect(await h.client.prompt(sessionId, "go")).toEqual({ stopReason: "end_turn" });
    expect(await h.client.prompt(sessionId, "again")).toEqual({ stopReason: "end_turn" });
    expect(h.client.permissionRequests.items.map((r) => r.toolCall.toolCallId)).toEqual(["w1"]);
    expect(existsSync(join(h.cwd, "f1.txt")) && existsSync(join(h.cwd, "f2.txt"))).toBe(true);
    const statuses = h.client
      .updatesOf(sessionId)
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.status)
      .map((u) => `${(u as any).toolCallId}:${(u as any).status}`);
    expect(statuses).toEqual([
      "l1:in_progress",
      "w1:in_progress",
      "l1:completed",
      "w1:completed",
      "w2:in_progress",
      "w2:completed",
    ]);
  });

  it("reject_always blocks later calls of that tool without asking again", async () => {
    const write = (n: number) => fauxToolCall("write", { path: `f${n}.txt`, content: String(n) }, `w${n}`);
    const { h, sessionId } = await ready({
      faux: { responses: [{ content: [write(1)] }, { content: "ok" }, { content: [write(2)] }, { content: "ok" }] },
    });
    h.client.answers.push(choose("reject_always"));
    await h.client.prompt(sessionId, "go");
    await h.client.prompt(sessionId, "again");
    expect(h.client.permissionRequests.items).toHaveLength(1);
    const result = h.faux.requests[3]!.context.messages.at(-1) as { role: string; content: Array<{ text: string }> };
    expect(result).toMatchObject({ role: "toolResult", isError: true });
    expect(result.content[0]!.text).toBe(
      "The user rejected every write call for this session, so this call was not run.",
    );
  });

  it('askPermission ["*"] asks before every tool; a cancelled permission outcome blocks the call', async () => {
    const { h, sessionId } = await ready({
      acpConfig: { askPermission: ["*"] },
      tools: [testTool("lookup", async () => "found")],
      faux: { responses: [{ content: [fauxToolCall("lookup", {}, "l1")] }, { content: "ok" }] },
    });
    h.client.answers.push({ outcome: { outcome: "cancelled" } });
    await h.client.prompt(sessionId, "go");
    expect(h.client.permissionRequests.items.map((r) => r.toolCall.title)).toEqual(["lookup"]);
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({
      role: "toolResult",
      isError: true,
      content: [{ text: "The lookup call was not run: the permission request was cancelled." }],
    });
  });

  it("cancel while a permission request is open: the call is not run and the prompt answers cancelled", async () => {
    const { h, sessionId } = await ready({
      faux: { responses: [{ content: [fauxToolCall("write", { path: "never.txt", content: "x" }, "w1")] }] },
    });
    let answerLate!: () => void;
    h.client.answers.push(() => new Promise((resolve) => (answerLate = () => resolve(choose("allow_once")))));
    const prompt = h.client.prompt(sessionId, "go");
    await h.client.permissionRequests.next(() => true);
    await h.client.agent.notify("session/cancel", { sessionId });
    expect(await prompt).toEqual({ stopReason: "cancelled" });
    answerLate();
    expect(existsSync(join(h.cwd, "never.txt"))).toBe(false);
    expect(
      h.client
        .updatesOf(sessionId)
        .filter((u) => u.sessionUpdate === "tool_call_update" && u.status)
        .map((u) => (u as any).status),
    ).toEqual(["failed"]);
    expect(h.faux.requests).toHaveLength(1);
  });

  it("codemode's nested calls are shown as their own tool calls, ask for permission, and end with their results", async () => {
    const code =
      'await tools.write({ path: "c.txt", content: "C" });\ntry { await tools.write({ path: "d.txt", content: "D" }); } catch (e) { console.log("refused: " + e.message); }\nreturn "ok";';
    const { h, sessionId } = await ready({
      extra: [codemode],
      faux: { responses: [{ content: [fauxToolCall("codemode", { code }, "cm")] }, { content: "done" }] },
    });
    h.client.answers.push(choose("allow_once"), choose("reject_once"));
    expect(await h.client.prompt(sessionId, "go")).toEqual({ stopReason: "end_turn" });

    expect(h.client.permissionRequests.items.map((r) => r.toolCall.toolCallId)).toEqual(["cm/1", "cm/2"]);
    expect(existsSync(join(h.cwd, "c.txt"))).toBe(true);
    expect(existsSync(join(h.cwd, "d.txt"))).toBe(false);
    const statuses = h.client
      .updatesOf(sessionId)
      .filter((u) => u.sessionUpdate === "tool_call" || (u.sessionUpdate === "tool_call_update" && u.status))
      .map((u) => `${(u as any).toolCallId}:${(u as any).status}`);
    expect(statuses).toEqual([
      "cm:pending",
      "cm:in_progress",
      "cm/1:pending",
      "cm/1:in_progress",
      "cm/1:completed",
      "cm/2:pending",
      "cm/2:failed",
      "cm:completed",
    ]);
    const nestedFailure = h.client
      .updatesOf(sessionId)
      .find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "cm/2" && u.status === "failed");
    expect(nestedFailure).toMatchObject({
      content: [
        { type: "content", content: { type: "text", text: "The user rejected this write call, so it was not run." } },
      ],
    });
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({
      role: "toolResult",
      content: [{ type: "text", text: expect.stringContaining("refused: The user rejected this write call") }],
    });
  });

  it("a tool's streamed output reaches the client as content updates before it completes", async () => {
    const { h, sessionId } = await ready({
      tools: [streaming],
      faux: { responses: [{ content: [fauxToolCall("progress", {}, "p1")] }, { content: "ok" }] },
    });
    await h.client.prompt(sessionId, "go");
    const updates = h.client
      .updatesOf(sessionId)
      .filter((u) => u.sessionUpdate === "tool_call_update" && (u as any).toolCallId === "p1" && u.content);
    expect(updates.map((u) => (u as any).content.map((c: any) => c.content.text).join(""))).toEqual([
      "",
      "step 1",
      "step 1\nstep 2",
      "all steps done",
    ]);
  });

  it("maps stop reasons: length → max_tokens, a refusal → refusal, another error → a JSON-RPC error with its message", async () => {
    const { h, sessionId } = await ready({
      faux: {
        responses: [
          { content: "cut", stopReason: "length" },
          { stopReason: "error", errorMessage: "The model declined to answer (stop_reason: refusal)" },
          { stopReason: "error", errorMessage: "faux: the scripted request failed" },
        ],
      },
    });
    expect(await h.client.prompt(sessionId, "one")).toEqual({ stopReason: "max_tokens" });
    expect(await h.client.prompt(sessionId, "two")).toEqual({ stopReason: "refusal" });
    await expect(h.client.prompt(sessionId, "three")).rejects.toMatchObject({
      code: -32603,
      message: "faux: the scripted request failed",
    });
  });

  it("prompts sent together run one after the other; a cancel also cancels the queued prompt of that session", async () => {
    const { h, sessionId } = await ready({
      faux: { tokensPerSecond: 50, responses: [{ content: "long ".repeat(200) }, { content: "never" }] },
    });
    const first = h.client.prompt(sessionId, "first");
    const second = h.client.prompt(sessionId, "second");
    await h.client.updates.next((n) => n.update.sessionUpdate === "agent_message_chunk");
    await h.client.agent.notify("session/cancel", { sessionId });
    expect(await first).toEqual({ stopReason: "cancelled" });
    expect(await second).toEqual({ stopReason: "cancelled" });
    expect(h.faux.requests).toHaveLength(1);
  });

  it("$/cancel_request for the prompt request cancels like session/cancel", async () => {
    const { h, sessionId } = await ready({
      faux: { tokensPerSecond: 50, responses: [{ content: "long ".repeat(200) }] },
    });
    const cancel = new AbortController();
    const prompt = h.client.agent.request(
      "session/prompt",
      { sessionId, prompt: [{ type: "text", text: "go" }] },
      { cancellationSignal: cancel.signal },
    );
    await h.client.updates.next((n) => n.update.sessionUpdate === "agent_message_chunk");
    cancel.abort();
    expect(await prompt).toEqual({ stopReason: "cancelled" });
    expect(h.session.call("messages").at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });

  it("stdout carries only JSON-RPC messages, one per line", async () => {
    const { h, sessionId } = await ready({ faux: { responses: [{ content: "hello\u2028there" }] } });
    await h.client.prompt(sessionId, "hi");
    expect(h.stdoutLines.length).toBeGreaterThan(3);
    for (const line of h.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  });
});

describe("ACP run lifecycle", () => {
  it("closing stdin cancels the running prompt and the run exits 0", async () => {
    const { h, sessionId } = await ready({
      faux: { tokensPerSecond: 50, responses: [{ content: "long ".repeat(200) }] },
    });
    void h.client.prompt(sessionId, "go").catch(() => undefined);
    await h.client.updates.next((n) => n.update.sessionUpdate === "agent_message_chunk");
    h.endInput();
    expect(await h.exit).toBe(0);
    expect(h.session.call("state").isStreaming).toBe(false);
    expect(h.session.call("messages").at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });

  it("the host's stop cancels the running prompt, which still answers cancelled, then the run exits 0", async () => {
    const { h, sessionId } = await ready({
      faux: { tokensPerSecond: 50, responses: [{ content: "long ".repeat(200) }] },
    });
    const prompt = h.client.prompt(sessionId, "go");
    await h.client.updates.next((n) => n.update.sessionUpdate === "agent_message_chunk");
    h.stop();
    expect(await prompt).toEqual({ stopReason: "cancelled" });
    expect(await h.exit).toBe(0);
  });

  it("requests before initialize are refused; command-line messages are ignored with a note on stderr", async () => {
    harness = await startAcp({ input: { messages: ["from argv"] } });
    await expect(harness.client.newSession(harness.cwd)).rejects.toMatchObject({ code: -32600 });
    expect(harness.stderr()).toBe(
      "pi: acp mode takes prompts from the client; the command-line messages were ignored\n",
    );
  });

  it("a second run while one is active is refused", async () => {
    harness = await startAcp();
    await harness.client.initialize();
    const { PassThrough } = await import("node:stream");
    const stderr = new PassThrough();
    let text = "";
    stderr.on("data", (d: Buffer) => (text += d.toString()));
    const code = await harness.mode.call(
      "run",
      { messages: [], images: [] },
      { stdin: new PassThrough(), stdout: new PassThrough(), stderr, stopped: new Promise<void>(() => {}) },
    );
    expect(code).toBe(1);
    expect(text).toContain("acp mode is already running");
  });
});
