/**
 * ACP sessions over pi-host's one open conversation: loading a stored session replays its history as
 * session updates; prompts to a thread that is not the open one switch to its file first.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fauxEcho, fauxText, fauxThinking, fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { choose, startAcp, type AcpHarness } from "./acp-harness.js";

let harness: AcpHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

function texts(updates: SessionUpdate[], kind: string): string[] {
  return updates.filter((u) => u.sessionUpdate === kind).map((u) => (u as any).content.text);
}

describe("ACP sessions", () => {
  it("session/load replays a stored session: user and agent chunks, thoughts, each tool call with its result", async () => {
    harness = await startAcp({
      faux: {
        responses: [
          {
            content: [
              fauxThinking("plan"),
              fauxText("Writing."),
              fauxToolCall("write", { path: "a.txt", content: "A" }, "w1"),
            ],
          },
          { content: "Wrote a.txt." },
          { content: "other thread" },
        ],
      },
    });
    harness.client.answers.push(choose("allow_once"));
    await harness.client.initialize();
    const first = await harness.client.newSession(harness.cwd);
    await harness.client.prompt(first, "please write a.txt");
    const firstFile = harness.session.call("state").sessionFile;
    expect(firstFile).toBeDefined();

    const second = await harness.client.newSession(harness.cwd);
    expect(second).not.toBe(first);
    await harness.client.prompt(second, "something else");

    const before = harness.client.updates.items.length;
    expect(
      await harness.client.agent.request("session/load", { sessionId: first, cwd: harness.cwd, mcpServers: [] }),
    ).toEqual({});
    const replayed = harness.client.updates.items.slice(before).map((n) => {
      expect(n.sessionId).toBe(first);
      return n.update;
    });
    expect(replayed.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call",
      "agent_message_chunk",
    ]);
    expect(texts(replayed, "user_message_chunk")).toEqual(["please write a.txt"]);
    expect(texts(replayed, "agent_message_chunk")).toEqual(["Writing.", "Wrote a.txt."]);
    expect(replayed[3]).toMatchObject({
      toolCallId: "w1",
      kind: "edit",
      status: "completed",
      rawInput: { path: "a.txt", content: "A" },
      content: [{ type: "diff", newText: "A" }, { type: "content" }],
    });
    expect(harness.session.call("state").sessionFile).toBe(firstFile);
  });

  it("session/load finds a session by id in a fresh connection, or by file path; an unknown id is not found", async () => {
    harness = await startAcp({ faux: { responses: [fauxEcho("echo: ")] } });
    await harness.client.initialize();
    const id = await harness.client.newSession(harness.cwd);
    await harness.client.prompt(id, "remember me");
    const file = harness.session.call("state").sessionFile!;
    harness.endInput();
    expect(await harness.exit).toBe(0);
    await harness.kernel.shutdown();

    // A new process would start with a new session; the stored one is found by its id.
    harness = await startAcp({
      agentDir: harness.agentDir,
      cwd: harness.cwd,
      faux: { responses: [fauxEcho("again: ")] },
    });
    await harness.client.initialize();
    await harness.client.agent.request("session/load", { sessionId: id, cwd: harness.cwd, mcpServers: [] });
    expect(texts(harness.client.updatesOf(id), "agent_message_chunk")).toEqual(["echo: remember me"]);
    expect(await harness.client.prompt(id, "and now?")).toEqual({ stopReason: "end_turn" });
    expect(harness.session.call("messages").filter((m) => m.role === "user")).toHaveLength(2);

    await harness.client.agent.request("session/load", { sessionId: file, cwd: harness.cwd, mcpServers: [] });
    expect(texts(harness.client.updatesOf(file), "user_message_chunk")).toEqual(["remember me", "and now?"]);

    await expect(
      harness.client.agent.request("session/load", { sessionId: "no-such-session", cwd: harness.cwd, mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32002,
      data: { sessionId: "no-such-session" },
    });
  });

  it("a prompt to a thread that is not the open one switches to its session file first", async () => {
    harness = await startAcp({ faux: { responses: [fauxEcho("1: "), fauxEcho("2: "), fauxEcho("3: ")] } });
    await harness.client.initialize();
    const a = await harness.client.newSession(harness.cwd);
    await harness.client.prompt(a, "first in a");
    const b = await harness.client.newSession(harness.cwd);
    await harness.client.prompt(b, "first in b");
    await harness.client.prompt(a, "second in a");
    expect(harness.session.call("state").sessionId).toBe(a);
    const users = harness.session
      .call("messages")
      .filter((m) => m.role === "user")
      .map((m) => (m as { content: unknown }).content);
    expect(users).toEqual(["first in a", "second in a"]);
    // The model saw thread a's history, not thread b's.
    expect(harness.faux.requests[2]!.context.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("session/list lists this folder's stored sessions, titled by their first message", async () => {
    harness = await startAcp({ faux: { responses: [fauxEcho(), fauxEcho()] } });
    const init = await harness.client.initialize();
    expect(init.agentCapabilities?.sessionCapabilities).toEqual({ list: {} });
    const a = await harness.client.newSession(harness.cwd);
    await harness.client.prompt(a, "the first thread");
    const b = await harness.client.newSession(harness.cwd);
    await harness.client.prompt(b, "the second\nthread");

    const listed = await harness.client.agent.request("session/list", {});
    // Both may end in the same millisecond, so their order is not checked here.
    expect(listed.sessions.map((s) => [s.sessionId, s.title, s.cwd])).toEqual(
      expect.arrayContaining([
        [b, "the second thread", harness.cwd],
        [a, "the first thread", harness.cwd],
      ]),
    );
    expect(listed.sessions).toHaveLength(2);
    expect(listed.sessions[0]!.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await harness.client.agent.request("session/list", { cwd: harness.cwd })).toEqual(listed);
    expect(await harness.client.agent.request("session/list", { cwd: harness.agentDir })).toEqual({ sessions: [] });
  });

  it("a prompt for an unknown session is refused with resource-not-found", async () => {
    harness = await startAcp();
    await harness.client.initialize();
    await expect(harness.client.prompt("nope", "hi")).rejects.toMatchObject({
      code: -32002,
      data: { sessionId: "nope" },
    });
  });

  it("an in-memory session cannot be reopened once another session was opened, and the prompt says why", async () => {
    harness = await startAcp({ config: { session: "none" }, faux: { responses: [fauxEcho()] } });
    await harness.client.initialize();
    const a = await harness.client.newSession(harness.cwd);
    await harness.client.newSession(harness.cwd);
    await expect(harness.client.prompt(a, "hello")).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("kept in memory only"),
    });
  });
});
