import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../contracts/agent.js";
import type { AssistantMessage } from "../../../contracts/ai/index.js";
import { SettingsContract, type Settings } from "../../../contracts/resources.js";
import { definePlugin } from "../../../kernel/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, testTool, type SessionHarness } from "./harness.js";

/** A settings plugin answering fixed settings. */
function settingsPlugin(settings: Settings) {
  return definePlugin({
    id: "test-settings",
    version: "1.0.0",
    provides: [SettingsContract],
    setup: (ctx) => ctx.provide(SettingsContract, { get: async () => settings, set: async () => {} }),
  });
}

/** The session file's entries, read the way pi reads them: line by line, JSON each. */
function fileEntries(h: SessionHarness): any[] {
  const path = h.session.call("state").sessionFile!;
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

const roles = (messages: AgentMessage[]): string[] => messages.map((m) => m.role);
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("agent session", () => {
  it("runs a prompt, publishes pi's events and persists every message at message_end", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("look", {}, "l1")] }, { content: "all done" }] },
      tools: [testTool("look", async () => "seen")],
    }));
    await h.session.call("prompt", "start");
    const types = h.events.map((e) => e.type).filter((t) => t !== "session_change" && t !== "model_change");
    expect(types[0]).toBe("agent_start");
    expect(types.slice(-2)).toEqual(["agent_end", "agent_settled"]);
    expect(h.events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
    expect(types).toContain("tool_execution_end");
    const entries = fileEntries(h);
    expect(entries[0]).toMatchObject({ type: "session", version: 3 });
    const messages = entries.filter((e) => e.type === "message");
    expect(messages.map((e) => e.message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    for (const e of messages) expect(e.id).toMatch(/^[0-9a-f]{8}$/);
    expect(roles(h.session.call("messages"))).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(h.session.call("lastAssistantText")).toBe("all done");
    const stats = h.session.call("stats");
    expect(stats).toMatchObject({
      userMessages: 1,
      assistantMessages: 2,
      toolCalls: 1,
      toolResults: 1,
      totalMessages: 4,
    });
    expect(stats.contextUsage?.contextWindow).toBe(h.model.contextWindow);
    // The model in use is recorded in the session, as pi records it.
    expect(entries.find((e) => e.type === "model_change")).toMatchObject({ provider: "faux", modelId: "faux-1" });
  });

  it("a second prompt continues from the persisted context", async () => {
    const h = (harness = await bootSession({ faux: { responses: [{ content: "one" }, { content: "two" }] } }));
    await h.session.call("prompt", "first");
    await h.session.call("prompt", "second");
    expect(h.faux.requests[1]!.context.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("refuses a prompt while running unless it says how to deliver it; steering goes in before the next request", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const h = (harness = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("wait", {}, "w1")] }, { content: "steered" }] },
      tools: [testTool("wait", async () => (await held, "waited"))],
    }));
    const running = h.session.call("prompt", "go");
    while (!h.events.some((e) => e.type === "tool_execution_start")) await flush();
    await expect(h.session.call("prompt", "again")).rejects.toThrow(/already working/);
    await h.session.call("prompt", "turn left", { streamingBehavior: "steer" });
    expect(h.events.filter((e) => e.type === "queue_update").at(-1)).toMatchObject({ steering: ["turn left"] });
    release();
    await running;
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({ role: "user", content: "turn left" });
  });

  it("retries a transient error with pi's auto_retry events, then succeeds", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [{ stopReason: "error", errorMessage: '529 {"type":"overloaded_error"}' }, { content: "recovered" }],
      },
      extra: [settingsPlugin({ retry: { baseDelayMs: 1, maxDelayMs: 5 } })],
    }));
    await h.session.call("prompt", "hi");
    const retryEvents = h.events.filter((e) => e.type.startsWith("auto_retry"));
    expect(retryEvents).toMatchObject([
      { type: "auto_retry_start", attempt: 1 },
      { type: "auto_retry_end", success: true, attempt: 1 },
    ]);
    expect(h.session.call("lastAssistantText")).toBe("recovered");
    // The failed answer stays in the file (nothing is lost) but is not sent again.
    expect(h.faux.requests[1]!.context.messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("does not retry a 401", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ stopReason: "error", errorMessage: "401 invalid x-api-key" }, { content: "never" }] },
    }));
    await h.session.call("prompt", "hi");
    expect(h.faux.requests).toHaveLength(1);
    expect(h.events.some((e) => e.type === "auto_retry_start")).toBe(false);
  });

  describe("compaction", () => {
    const big = (label: string): string => `${label} ${"lorem ipsum dolor sit amet ".repeat(120)}`;
    const smallWindow = { models: [{ id: "faux-1", contextWindow: 4_000, maxTokens: 1_000 }] };
    const tightSettings = { compaction: { reserveTokens: 1_000, keepRecentTokens: 800 } };

    it("triggers at the threshold, persists the summary entry, and the context becomes summary + kept messages", async () => {
      const h = (harness = await bootSession({
        faux: {
          ...smallWindow,
          responses: [
            { content: big("a1"), usage: { input: 900, output: 800 } },
            { content: big("a2"), usage: { input: 2_500, output: 800 } },
            { content: "## Goal\nsummary text" },
            { content: "## Goal\nturn prefix" },
          ],
        },
        extra: [settingsPlugin(tightSettings)],
      }));
      await h.session.call("prompt", big("u1"));
      expect(h.events.some((e) => e.type === "compaction_start")).toBe(false);
      await h.session.call("prompt", big("u2"));
      const start = h.events.find((e) => e.type === "compaction_start");
      expect(start).toMatchObject({ reason: "threshold" });
      const end = h.events.find((e) => e.type === "compaction_end") as any;
      expect(end.result.summary).toContain("summary text");
      const compactionEntry = fileEntries(h).find((e) => e.type === "compaction");
      expect(compactionEntry).toMatchObject({ firstKeptEntryId: end.result.firstKeptEntryId });
      const kept = fileEntries(h).find((e) => e.id === compactionEntry.firstKeptEntryId);
      expect(kept.type === "message" && kept.message.role).not.toBe("toolResult");
      const context = h.session.call("messages");
      expect(context[0]!.role).toBe("compactionSummary");
      expect(context.length).toBeLessThan(4);
    });

    it("an overflow error compacts and retries once", async () => {
      const h = (harness = await bootSession({
        faux: {
          ...smallWindow,
          responses: [
            { content: big("a1") },
            { stopReason: "error", errorMessage: "prompt is too long: 213462 tokens > 200000 maximum" },
            { content: "## Goal\ncompacted" },
            { content: "answer after compaction" },
          ],
        },
        extra: [settingsPlugin({ compaction: { reserveTokens: 100, keepRecentTokens: 50 } })],
      }));
      await h.session.call("prompt", big("u1"));
      await h.session.call("prompt", "u2");
      expect(h.events.find((e) => e.type === "compaction_start")).toMatchObject({ reason: "overflow" });
      expect(h.events.find((e) => e.type === "compaction_end")).toMatchObject({ reason: "overflow", willRetry: true });
      expect(h.session.call("lastAssistantText")).toBe("answer after compaction");
      expect(h.faux.requests).toHaveLength(4);
      expect(h.faux.requests[3]!.context.messages[0]).toMatchObject({ role: "user" });
    });

    it("compaction.enabled: false is honoured on both paths", async () => {
      const h = (harness = await bootSession({
        faux: {
          ...smallWindow,
          responses: [
            { content: big("a1"), usage: { input: 3_500, output: 400 } },
            { stopReason: "error", errorMessage: "prompt is too long" },
          ],
        },
        extra: [settingsPlugin({ compaction: { enabled: false, reserveTokens: 100, keepRecentTokens: 50 } })],
      }));
      await h.session.call("prompt", big("u1"));
      await h.session.call("prompt", "u2");
      expect(h.events.some((e) => e.type === "compaction_start")).toBe(false);
      expect(h.faux.requests).toHaveLength(2);
      expect(fileEntries(h).some((e) => e.type === "compaction")).toBe(false);
    });

    it("manual /compact with instructions", async () => {
      const h = (harness = await bootSession({
        faux: {
          responses: [
            { content: big("a1") },
            { content: big("a2") },
            { content: "## Goal\nmanual" },
            { content: "## Goal\nturn prefix" },
          ],
        },
        extra: [settingsPlugin({ compaction: { keepRecentTokens: 100 } })],
      }));
      await h.session.call("prompt", big("u1"));
      await h.session.call("prompt", big("u2"));
      const result = await h.session.call("compact", "focus on the tests");
      expect(result?.summary).toContain("manual");
      expect(JSON.stringify(h.faux.requests.slice(2).map((r) => r.context.messages))).toContain("focus on the tests");
      expect(h.events.find((e) => e.type === "compaction_start")).toMatchObject({ reason: "manual" });
    });
  });

  it("new session, switch back, fork at a user message", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "a1" }, { content: "a2" }, { content: "b1" }] },
    }));
    await h.session.call("prompt", "first question");
    await h.session.call("prompt", "second question");
    const firstFile = h.session.call("state").sessionFile!;
    const forkPoints = h.session.call("forkPoints");
    expect(forkPoints.map((p) => p.text)).toEqual(["first question", "second question"]);
    const forked = await h.session.call("fork", forkPoints[1]!.entryId);
    expect(forked.text).toBe("second question");
    expect(h.session.call("state").sessionFile).not.toBe(firstFile);
    expect(roles(h.session.call("messages"))).toEqual(["user", "assistant"]);
    expect(fileEntries(h)[0]).toMatchObject({ parentSession: firstFile });
    await h.session.call("newSession");
    expect(h.session.call("messages")).toEqual([]);
    await h.session.call("switchSession", firstFile);
    expect(roles(h.session.call("messages"))).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("abort stops a streaming answer and the run", async () => {
    const h = (harness = await bootSession({
      faux: { tokensPerSecond: 200, responses: [{ content: "word ".repeat(400) }] },
    }));
    const running = h.session.call("prompt", "talk");
    while (h.events.filter((e) => e.type === "message_update").length < 2) await flush();
    await h.session.call("abort");
    await running;
    const last = h.session.call("messages").at(-1) as AssistantMessage;
    expect(last.stopReason).toBe("aborted");
    expect(h.session.call("state").isStreaming).toBe(false);
  });

  it("reloading the store or the compactor mid-session loses and duplicates no entry", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "a1" }, { content: "a2" }, { content: "a3" }] },
    }));
    await h.session.call("prompt", "q1");
    expect((await h.kernel.configure("session-jsonl", { agentDir: h.agentDir })).status).toBe("committed");
    await h.session.call("prompt", "q2");
    expect((await h.kernel.reload("compaction")).status).toBe("committed");
    await h.session.call("prompt", "q3");
    const messages = fileEntries(h).filter((e) => e.type === "message");
    expect(messages.map((e) => e.message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(new Set(messages.map((e) => e.id)).size).toBe(6);
    expect(roles(h.session.call("messages"))).toHaveLength(6);
  });
});
