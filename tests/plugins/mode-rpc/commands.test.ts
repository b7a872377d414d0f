import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  ResourcesContract,
  SettingsContract,
  type ResourceSource,
  type Settings,
} from "../../../contracts/resources.js";
import { definePlugin } from "../../../kernel/index.js";
import { startRpc, type RpcHarness } from "./rpc-harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

function settingsPlugin(settings: Settings) {
  return definePlugin({
    id: "test-settings",
    version: "1.0.0",
    provides: [SettingsContract],
    setup: (ctx) => ctx.provide(SettingsContract, { get: async () => settings, set: async () => {} }),
  });
}

function resourcesPlugin(source: ResourceSource) {
  return definePlugin({
    id: "test-resources",
    version: "1.0.0",
    provides: [ResourcesContract],
    setup: (ctx) => ctx.provide(ResourcesContract, source),
  });
}

const TWO_MODELS = {
  models: [{ id: "faux-1" }, { id: "faux-2", name: "Faux Two" }, { id: "plain", reasoning: false }],
};

describe("state and messages", () => {
  it("get_state has pi's fields from the first command on; get_messages lists the conversation", async () => {
    const h = (harness = await startRpc({ faux: { responses: [{ content: "hi back" }] } }));
    const state = await h.client.request({ type: "get_state" });
    expect(state).toMatchObject({ id: "req-1", type: "response", command: "get_state", success: true });
    expect(state.data).toEqual({
      model: expect.objectContaining({ id: "faux-1", provider: "faux", api: "faux", contextWindow: 128_000 }),
      thinkingLevel: "medium",
      isStreaming: false,
      isCompacting: false,
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      sessionFile: expect.stringMatching(/\.jsonl$/),
      sessionId: expect.any(String),
      autoCompactionEnabled: true,
      messageCount: 0,
      pendingMessageCount: 0,
    });
    await h.client.request({ type: "prompt", message: "hello" });
    await h.client.event("agent_end");
    const messages = await h.client.request({ type: "get_messages" });
    expect(messages.data.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect((await h.client.request({ type: "get_state" })).data.messageCount).toBe(2);
    expect(await h.client.request({ type: "get_last_assistant_text" })).toMatchObject({
      success: true,
      data: { text: "hi back" },
    });
  });

  it("get_last_assistant_text is null before any answer; get_session_stats has pi's counters", async () => {
    const h = (harness = await startRpc({
      faux: { responses: [{ content: "answer", usage: { input: 10, output: 5 } }] },
    }));
    expect((await h.client.request({ type: "get_last_assistant_text" })).data).toEqual({ text: null });
    await h.client.request({ type: "prompt", message: "q" });
    await h.client.event("agent_end");
    const stats = await h.client.request({ type: "get_session_stats" });
    expect(stats.data).toMatchObject({
      sessionFile: expect.any(String),
      sessionId: expect.any(String),
      userMessages: 1,
      assistantMessages: 1,
      toolCalls: 0,
      toolResults: 0,
      totalMessages: 2,
      tokens: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, total: 15 },
      cost: 0,
      contextUsage: { contextWindow: 128_000 },
    });
  });
});

describe("model and thinking", () => {
  it("set_model, cycle_model and get_available_models answer with full Model objects", async () => {
    const h = (harness = await startRpc({ faux: TWO_MODELS }));
    const available = await h.client.request({ type: "get_available_models" });
    expect(available.data.models.map((m: { id: string }) => m.id)).toEqual(["faux-1", "faux-2", "plain"]);
    const set = await h.client.request({ type: "set_model", provider: "faux", modelId: "faux-2" });
    expect(set).toMatchObject({
      command: "set_model",
      success: true,
      data: { id: "faux-2", name: "Faux Two", provider: "faux", api: "faux", contextWindow: 128_000 },
    });
    expect(await h.client.request({ type: "set_model", provider: "faux", modelId: "nope" })).toMatchObject({
      success: false,
      error: "Model not found: faux/nope",
    });
    expect(await h.client.request({ type: "set_model", provider: "faux" })).toMatchObject({
      success: false,
      error: '"set_model" needs "modelId" as a string',
    });
    const cycled = await h.client.request({ type: "cycle_model" });
    expect(cycled.data).toEqual({
      model: expect.objectContaining({ id: "plain" }),
      thinkingLevel: "off",
      isScoped: false,
    });
    expect((await h.client.request({ type: "get_state" })).data.model.id).toBe("plain");
  });

  it("set_thinking_level and cycle_thinking_level; a model without reasoning cycles to null", async () => {
    const h = (harness = await startRpc({ faux: TWO_MODELS }));
    expect(await h.client.request({ type: "set_thinking_level", level: "high" })).toEqual({
      id: "req-1",
      type: "response",
      command: "set_thinking_level",
      success: true,
    });
    expect((await h.client.request({ type: "get_state" })).data.thinkingLevel).toBe("high");
    expect(await h.client.request({ type: "cycle_thinking_level" })).toMatchObject({
      success: true,
      data: { level: "xhigh" },
    });
    expect(await h.client.request({ type: "set_thinking_level", level: "max" })).toMatchObject({
      success: false,
      error: expect.stringMatching(/"level" as one of "off"/),
    });
    // pi 1.6.0's event for each change of level while a model is in use.
    expect(h.client.records.filter((r) => r.type === "thinking_level_changed")).toEqual([
      { type: "thinking_level_changed", level: "high" },
      { type: "thinking_level_changed", level: "xhigh" },
    ]);
    expect(await h.client.request({ type: "get_available_thinking_levels" })).toMatchObject({
      success: true,
      data: { levels: ["off", "minimal", "low", "medium", "high", "xhigh"] },
    });
    await h.client.request({ type: "set_model", provider: "faux", modelId: "plain" });
    const cycled = await h.client.request({ type: "cycle_thinking_level" });
    expect(cycled).toMatchObject({ success: true, data: null });
    expect("data" in cycled).toBe(true);
    expect(await h.client.request({ type: "get_available_thinking_levels" })).toMatchObject({
      data: { levels: ["off"] },
    });
  });

  it("set_steering_mode and set_follow_up_mode show in get_state; a bad mode is refused", async () => {
    const h = (harness = await startRpc());
    expect(await h.client.request({ type: "set_steering_mode", mode: "all" })).toEqual({
      id: "req-1",
      type: "response",
      command: "set_steering_mode",
      success: true,
    });
    expect(await h.client.request({ type: "set_follow_up_mode", mode: "all" })).toEqual({
      id: "req-2",
      type: "response",
      command: "set_follow_up_mode",
      success: true,
    });
    expect((await h.client.request({ type: "get_state" })).data).toMatchObject({
      steeringMode: "all",
      followUpMode: "all",
    });
    expect(await h.client.request({ type: "set_follow_up_mode", mode: "sometimes" })).toMatchObject({
      success: false,
      error: expect.stringMatching(/"mode" as one of "all", "one-at-a-time"/),
    });
  });
});

describe("compaction and retry", () => {
  const big = (label: string): string => `${label} ${"lorem ipsum dolor sit amet ".repeat(120)}`;

  it("compact answers with the CompactionResult; with nothing to compact it fails with one line", async () => {
    const h = (harness = await startRpc({
      faux: {
        responses: [
          { content: big("a1") },
          { content: big("a2") },
          { content: "## Goal\nsummary of it" },
          { content: "## Goal\nturn prefix" },
        ],
      },
      extra: [settingsPlugin({ compaction: { keepRecentTokens: 100 } })],
    }));
    expect(await h.client.request({ type: "compact" })).toMatchObject({
      command: "compact",
      success: false,
      error: "Nothing to compact (session too small)",
    });
    for (const text of [big("u1"), big("u2")]) {
      const from = h.client.count;
      await h.client.request({ type: "prompt", message: text });
      await h.client.event("agent_end", from);
    }
    const compacted = await h.client.request({ type: "compact", customInstructions: "focus on the tests" });
    expect(compacted).toMatchObject({ command: "compact", success: true });
    expect(compacted.data).toEqual({
      summary: expect.stringContaining("summary of it"),
      firstKeptEntryId: expect.stringMatching(/^[0-9a-f]{8}$/),
      tokensBefore: expect.any(Number),
      estimatedTokensAfter: expect.any(Number),
      details: expect.any(Object),
    });
    expect(compacted.data.estimatedTokensAfter).toBeLessThan(compacted.data.tokensBefore);
    expect(h.client.records.filter((r) => r.type === "compaction_start").at(-1)).toEqual({
      type: "compaction_start",
      reason: "manual",
    });
    // The response adds pi 1.6.0's estimatedTokensAfter; the event carries the compactor's result.
    const { estimatedTokensAfter: _after, ...compactorResult } = compacted.data;
    expect(h.client.records.filter((r) => r.type === "compaction_end").at(-1)).toMatchObject({
      reason: "manual",
      aborted: false,
      willRetry: false,
      result: compactorResult,
    });
    expect(JSON.stringify(h.faux.requests.slice(2).map((r) => r.context.messages))).toContain("focus on the tests");
  });

  it("set_auto_compaction, set_auto_retry and abort_retry answer with success and no data", async () => {
    const h = (harness = await startRpc());
    expect(await h.client.request({ type: "set_auto_compaction", enabled: false })).toEqual({
      id: "req-1",
      type: "response",
      command: "set_auto_compaction",
      success: true,
    });
    expect((await h.client.request({ type: "get_state" })).data.autoCompactionEnabled).toBe(false);
    expect(await h.client.request({ type: "set_auto_retry", enabled: false })).toEqual({
      id: "req-3",
      type: "response",
      command: "set_auto_retry",
      success: true,
    });
    expect(await h.client.request({ type: "set_auto_retry", enabled: "yes" })).toMatchObject({
      success: false,
      error: '"set_auto_retry" needs "enabled" as true or false',
    });
    expect(await h.client.request({ type: "abort_retry" })).toEqual({
      id: "req-5",
      type: "response",
      command: "abort_retry",
      success: true,
    });
  });
});

describe("sessions", () => {
  it("new_session, switch_session, fork, get_fork_messages and clone", async () => {
    const h = (harness = await startRpc({ faux: { responses: [{ content: "a1" }, { content: "a2" }] } }));
    for (const message of ["first question", "second question"]) {
      const from = h.client.count;
      await h.client.request({ type: "prompt", message });
      await h.client.event("agent_end", from);
    }
    const firstFile = (await h.client.request({ type: "get_state" })).data.sessionFile;

    const forkPoints = await h.client.request({ type: "get_fork_messages" });
    expect(forkPoints.data.messages).toEqual([
      { entryId: expect.stringMatching(/^[0-9a-f]{8}$/), text: "first question" },
      { entryId: expect.stringMatching(/^[0-9a-f]{8}$/), text: "second question" },
    ]);

    const cloned = await h.client.request({ type: "clone" });
    expect(cloned).toEqual({
      id: expect.any(String),
      type: "response",
      command: "clone",
      success: true,
      data: { cancelled: false },
    });
    const cloneState = (await h.client.request({ type: "get_state" })).data;
    expect(cloneState.sessionFile).not.toBe(firstFile);
    expect(cloneState.messageCount).toBe(4);
    expect(h.client.records.filter((r) => r.type === "session_change").at(-1)).toMatchObject({
      reason: "fork",
      session: { path: cloneState.sessionFile },
    });

    expect(await h.client.request({ type: "switch_session", sessionPath: firstFile })).toMatchObject({
      command: "switch_session",
      success: true,
      data: { cancelled: false },
    });
    expect((await h.client.request({ type: "get_state" })).data.sessionFile).toBe(firstFile);

    const forked = await h.client.request({ type: "fork", entryId: forkPoints.data.messages[1].entryId });
    expect(forked).toMatchObject({
      command: "fork",
      success: true,
      data: { text: "second question", cancelled: false },
    });
    const forkedMessages = (await h.client.request({ type: "get_messages" })).data.messages;
    expect(forkedMessages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(await h.client.request({ type: "fork", entryId: "zzzzzzzz" })).toMatchObject({
      command: "fork",
      success: false,
      error: expect.stringMatching(/not a user message/),
    });

    expect(await h.client.request({ type: "new_session" })).toMatchObject({
      command: "new_session",
      success: true,
      data: { cancelled: false },
    });
    expect((await h.client.request({ type: "get_messages" })).data.messages).toEqual([]);
    expect(await h.client.request({ type: "switch_session" })).toMatchObject({
      success: false,
      error: '"switch_session" needs "sessionPath" as a string',
    });
  });

  it("set_session_name shows in get_state; an empty name is refused", async () => {
    const h = (harness = await startRpc());
    expect(await h.client.request({ type: "set_session_name", name: "  my work  " })).toEqual({
      id: "req-1",
      type: "response",
      command: "set_session_name",
      success: true,
    });
    expect((await h.client.request({ type: "get_state" })).data.sessionName).toBe("my work");
    expect(h.client.records.filter((r) => r.type === "session_info_changed")).toEqual([
      { type: "session_info_changed", name: "my work" },
    ]);
    expect(await h.client.request({ type: "set_session_name", name: "   " })).toMatchObject({
      success: false,
      error: "Session name cannot be empty",
    });
  });

  it("clone of a session with no entry yet (no model chosen, nothing said) is refused as pi refuses it", async () => {
    const h = (harness = await startRpc({ config: { model: undefined } }));
    expect(await h.client.request({ type: "clone" })).toMatchObject({
      success: false,
      error: "Cannot clone session: no current entry selected",
    });
  });

  it("export_html writes the session page where asked and answers its path; before any answer it says so", async () => {
    const h = (harness = await startRpc({ faux: { responses: [{ content: "the <b>answer</b>" }] } }));
    expect(await h.client.request({ type: "export_html" })).toMatchObject({
      success: false,
      error: "Nothing to export yet - start a conversation first",
    });
    await h.client.request({ type: "prompt", message: "a </script> question" });
    await h.client.event("agent_end");
    const out = join(mkdtempSync(join(tmpdir(), "rpc-export-")), "session.html");
    expect(await h.client.request({ type: "export_html", outputPath: out })).toEqual({
      id: expect.any(String),
      type: "response",
      command: "export_html",
      success: true,
      data: { path: out },
    });
    const html = readFileSync(out, "utf8");
    expect(html).toContain("a &lt;/script&gt; question");
    expect(html).toContain("the &lt;b&gt;answer&lt;/b&gt;");
  });
});

describe("get_entries and get_tree", () => {
  it("get_entries lists the session's entries (after a `since` cursor) and the leaf; get_tree gives the tree and the leaf", async () => {
    const h = (harness = await startRpc({ faux: { responses: [{ content: "a1" }, { content: "a2" }] } }));
    for (const message of ["one", "two"]) {
      const from = h.client.count;
      await h.client.request({ type: "prompt", message });
      await h.client.event("agent_end", from);
    }
    const entries = (await h.client.request({ type: "get_entries" })).data.entries;
    expect(entries.map((e: { type: string }) => e.type)).toEqual([
      "model_change",
      "thinking_level_change",
      "message",
      "message",
      "message",
      "message",
    ]);
    for (const e of entries)
      expect(e).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{8}$/), timestamp: expect.any(String) });
    const after = (await h.client.request({ type: "get_entries", since: entries[3].id })).data;
    expect(after).toEqual({ entries: entries.slice(4), leafId: entries.at(-1).id });
    expect(await h.client.request({ type: "get_entries", since: "ffffffff" })).toMatchObject({
      success: false,
      error: "No entry ffffffff in this session; pass an id from get_entries",
    });
    const tree = (await h.client.request({ type: "get_tree" })).data;
    expect(tree.leafId).toBe(entries.at(-1).id);
    // One chain: each node has the next entry as its only child.
    let node = tree.tree[0];
    const chain: string[] = [];
    while (node !== undefined) {
      chain.push(node.entry.id);
      expect(node.children.length).toBeLessThanOrEqual(1);
      node = node.children[0];
    }
    expect(chain).toEqual(entries.map((e: { id: string }) => e.id));
  });
});

describe("get_commands", () => {
  it("lists prompt templates and skills from the resource sources in pi's shape", async () => {
    const source: ResourceSource = {
      promptSections: async () => [],
      templates: async () => [
        {
          name: "fix-tests",
          description: "Fix failing tests",
          body: "Fix $1",
          path: "/p/.pi/agent/prompts/fix-tests.md",
          origin: "project",
        },
        { name: "explain", description: "Explain code", body: "Explain", path: "/x/explain.md", origin: "flag" },
      ],
      skills: async () => [
        {
          name: "brave-search",
          description: "Web search",
          path: "/home/u/.pi/agent/skills/brave-search/SKILL.md",
          origin: "user",
        },
      ],
    };
    const h = (harness = await startRpc({ extra: [resourcesPlugin(source)] }));
    const response = await h.client.request({ type: "get_commands" });
    expect(response).toMatchObject({ command: "get_commands", success: true });
    expect(response.data.commands).toEqual([
      {
        name: "fix-tests",
        description: "Fix failing tests",
        source: "prompt",
        sourceInfo: {
          path: "/p/.pi/agent/prompts/fix-tests.md",
          source: "auto",
          scope: "project",
          origin: "top-level",
          baseDir: "/p/.pi/agent",
        },
      },
      {
        name: "explain",
        description: "Explain code",
        source: "prompt",
        sourceInfo: { path: "/x/explain.md", source: "cli", scope: "temporary", origin: "top-level" },
      },
      {
        name: "skill:brave-search",
        description: "Web search",
        source: "skill",
        sourceInfo: {
          path: "/home/u/.pi/agent/skills/brave-search/SKILL.md",
          source: "auto",
          scope: "user",
          origin: "top-level",
          baseDir: "/home/u/.pi/agent",
        },
      },
    ]);
  });

  it("without resource sources the list is empty", async () => {
    const h = (harness = await startRpc());
    expect((await h.client.request({ type: "get_commands" })).data).toEqual({ commands: [] });
  });
});
