/**
 * Acceptance 4, the store is a plugin: a distribution whose `session-jsonl` entry runs another store — the
 * in-memory store of tests/fixtures/plugins/memory-store, loaded from its source file like any user plugin —
 * runs the same end-to-end prompt (with a real tool round trip through tool-read) as the default store,
 * gives the orchestrator the same conversation, and writes nothing to the agent folder or the project.
 * The orchestrator's other uses of the store (tree, branch, fork, names, compaction, a reload of the
 * store) work on it too.
 */
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../contracts/agent.js";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { SettingsContract, type Settings } from "../../../contracts/resources.js";
import type { SessionEntry, TreeNode } from "../../../contracts/session.js";
import { definePlugin, type PluginSource } from "../../../kernel/index.js";
import { fauxToolCall, type FauxOptions } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const MEMORY_STORE: PluginSource = {
  kind: "file",
  path: fileURLToPath(new URL("../../fixtures/plugins/memory-store/index.ts", import.meta.url)),
};
const TOOL_READ = {
  id: "tool-read",
  source: { kind: "file" as const, path: join(ROOT, "plugins/tools/tool-read/index.ts") },
};

const harnesses: SessionHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.kernel.shutdown();
});

/** Settings answered by a plugin, for the compaction knobs. */
function settingsPlugin(settings: Settings) {
  return definePlugin({
    id: "test-settings",
    version: "1.0.0",
    provides: [SettingsContract],
    setup: (ctx) => ctx.provide(SettingsContract, { get: async () => settings, set: async () => {} }),
  });
}

/** Every file and folder under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

/** A project folder holding notes.txt, and an empty agent folder. */
function folders(): { cwd: string; agentDir: string } {
  const cwd = mkdtempSync(join(tmpdir(), "pi-swap-store-cwd-"));
  writeFileSync(join(cwd, "notes.txt"), "the answer is 42\n");
  return { cwd, agentDir: mkdtempSync(join(tmpdir(), "pi-swap-store-agent-")) };
}

async function boot(options: {
  store?: PluginSource;
  faux: FauxOptions;
  settings?: Settings;
  cwd?: string;
  agentDir?: string;
}): Promise<SessionHarness> {
  const h = await bootSession({
    cwd: options.cwd,
    agentDir: options.agentDir,
    faux: options.faux,
    sources: options.store ? { "session-jsonl": options.store } : {},
    entries: [TOOL_READ],
    extra: options.settings ? [settingsPlugin(options.settings)] : [],
  });
  harnesses.push(h);
  return h;
}

/** The conversation as the orchestrator has it, without the parts that differ per run (times, ids, usage). */
function transcript(messages: AgentMessage[]): string[] {
  return messages.map((m) => {
    const content = (m as { content?: unknown }).content;
    const blocks =
      typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
    return `${m.role}: ${blocks.map((b: any) => (b.type === "text" ? b.text : b.type === "toolCall" ? `${b.name}(${JSON.stringify(b.arguments)})` : b.type)).join(" | ")}`;
  });
}

/** The same prompt on any store: the model reads notes.txt with tool-read, then answers. */
async function readTheNotes(
  store: PluginSource | undefined,
): Promise<{ h: SessionHarness; cwd: string; agentDir: string }> {
  const { cwd, agentDir } = folders();
  const h = await boot({
    store,
    cwd,
    agentDir,
    faux: { responses: [{ content: [fauxToolCall("read", { path: "notes.txt" }, "r1")] }, { content: "it says 42" }] },
  });
  await h.session.call("prompt", "what do the notes say?");
  return { h, cwd, agentDir };
}

function countNodes(roots: TreeNode[]): number {
  return roots.reduce((n, node) => n + 1 + countNodes(node.children), 0);
}

describe("a distribution with an in-memory session store", () => {
  it("runs the same end-to-end prompt with a tool round trip as the default store, and writes nothing", async () => {
    const memory = await readTheNotes(MEMORY_STORE);
    const h = memory.h;
    expect(h.kernel.describe().plugins.find((p) => p.id === "session-jsonl")).toMatchObject({
      name: "memory-store",
      status: "active",
    });

    const messages = h.session.call("messages");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(JSON.stringify((messages[2] as ToolResultMessage).content)).toContain("the answer is 42");
    expect(h.session.call("lastAssistantText")).toBe("it says 42");
    // The second request carried the tool result: the store's context fed the loop.
    expect(h.faux.requests[1]!.context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);

    // Every message was persisted at message_end as a pi-shaped entry in one chain under the model settings.
    const entries = h.session.call("entries");
    expect(entries.map((e) => (e.type === "message" ? e.message.role : e.type))).toEqual([
      "model_change",
      "thinking_level_change",
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    entries.forEach((entry, i) => {
      expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
      expect(entry.parentId).toBe(i === 0 ? null : entries[i - 1]!.id);
    });
    const state = h.session.call("state");
    expect(state.sessionFile).toBeUndefined();
    expect(state.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.session.call("stats")).toMatchObject({
      userMessages: 1,
      assistantMessages: 2,
      toolCalls: 1,
      toolResults: 1,
      totalMessages: 4,
    });

    // Nothing on disk: the agent folder stays empty and the project holds only what the test put there.
    expect(filesUnder(memory.agentDir)).toEqual([]);
    expect(filesUnder(memory.cwd)).toEqual(["notes.txt"]);

    // The default store, given the same prompt, ends with the same conversation (and a session file).
    const jsonl = await readTheNotes(undefined);
    expect(jsonl.h.kernel.describe().plugins.find((p) => p.id === "session-jsonl")).toMatchObject({
      name: "session-jsonl",
    });
    expect(transcript(messages)).toEqual(transcript(jsonl.h.session.call("messages")));
    expect(transcript(h.faux.requests[1]!.context.messages as AgentMessage[])).toEqual(
      transcript(jsonl.h.faux.requests[1]!.context.messages as AgentMessage[]),
    );
    expect(jsonl.h.session.call("entries").map((e) => e.type)).toEqual(entries.map((e) => e.type));
    expect(jsonl.h.session.call("state").sessionFile).toMatch(/\.jsonl$/);
    expect(filesUnder(jsonl.agentDir)).not.toEqual([]);
  });

  it("moves in the tree, names the session and forks into another in-memory session", async () => {
    const { cwd, agentDir } = folders();
    const h = await boot({
      store: MEMORY_STORE,
      cwd,
      agentDir,
      faux: { responses: [{ content: "a1" }, { content: "a2" }, { content: "a3" }] },
    });
    await h.session.call("prompt", "q1");
    await h.session.call("prompt", "q2");
    const firstAnswer = h.session.call("entries").find((e) => e.type === "message" && e.message.role === "assistant")!;

    // Back to the first answer, then a new question: a second branch under it.
    await h.session.call("navigateTree", firstAnswer.id);
    expect(transcript(h.session.call("messages"))).toEqual(["user: q1", "assistant: a1"]);
    await h.session.call("prompt", "q3");
    expect(transcript(h.faux.requests[2]!.context.messages as AgentMessage[])).toEqual([
      "user: q1",
      "assistant: a1",
      "user: q3",
    ]);
    const tree = h.session.call("tree");
    expect(countNodes(tree)).toBe(h.session.call("entries").length);
    const findNode = (nodes: TreeNode[], id: string): TreeNode | undefined =>
      nodes.map((n) => (n.entry.id === id ? n : findNode(n.children, id))).find(Boolean);
    expect(
      findNode(tree, firstAnswer.id)!.children.map(
        (c) => transcript([(c.entry as Extract<SessionEntry, { type: "message" }>).message])[0],
      ),
    ).toEqual(["user: q2", "user: q3"]);

    await h.session.call("setSessionName", "swap test");
    expect(h.session.call("state").sessionName).toBe("swap test");

    // Fork at q3: a new session holding what came before it; the text of q3 comes back for the editor.
    const before = h.session.call("state").sessionId;
    const q3 = h.session.call("forkPoints").find((p) => p.text === "q3")!;
    const forked = await h.session.call("fork", q3.entryId);
    expect(forked.text).toBe("q3");
    expect(forked.session).toMatchObject({ path: undefined });
    expect(forked.session!.id).not.toBe(before);
    expect(h.session.call("state").sessionId).toBe(forked.session!.id);
    expect(transcript(h.session.call("messages"))).toEqual(["user: q1", "assistant: a1"]);
    expect(filesUnder(agentDir)).toEqual([]);
  });

  it("compacts through the orchestrator: the summary entry is kept and the context becomes summary + kept messages", async () => {
    const { cwd, agentDir } = folders();
    const big = (label: string): string => `${label} ${"lorem ipsum dolor sit amet ".repeat(120)}`;
    const h = await boot({
      store: MEMORY_STORE,
      cwd,
      agentDir,
      settings: { compaction: { keepRecentTokens: 100 } },
      faux: {
        responses: [
          { content: big("a1") },
          { content: big("a2") },
          { content: "## Goal\nmanual summary" },
          { content: "## Goal\nturn prefix" },
        ],
      },
    });
    await h.session.call("prompt", big("u1"));
    await h.session.call("prompt", big("u2"));
    const result = await h.session.call("compact", "keep it short");
    expect(result?.summary).toContain("manual summary");

    const compaction = h.session.call("entries").find((e) => e.type === "compaction")!;
    expect(compaction).toMatchObject({
      firstKeptEntryId: result!.firstKeptEntryId,
      tokensBefore: result!.tokensBefore,
    });
    const kept = h.session.call("entries").find((e) => e.id === result!.firstKeptEntryId)!;
    expect(kept.type === "message" && kept.message.role).not.toBe("toolResult");
    const context = h.session.call("messages");
    expect(context[0]).toMatchObject({ role: "compactionSummary", summary: result!.summary });
    const path = h.session.call("entries");
    const keptFrom = path.findIndex((e) => e.id === result!.firstKeptEntryId);
    const keptMessages = path.slice(keptFrom).filter((e) => e.type === "message").length;
    expect(context).toHaveLength(1 + keptMessages);
    expect(filesUnder(agentDir)).toEqual([]);
  });

  it("keeps its sessions across a reload of the store mid-session: nothing lost, nothing duplicated", async () => {
    const { cwd, agentDir } = folders();
    const h = await boot({
      store: MEMORY_STORE,
      cwd,
      agentDir,
      faux: { responses: [{ content: "a1" }, { content: "a2" }] },
    });
    await h.session.call("prompt", "q1");
    const before = h.session.call("entries");
    // Re-loading from its source file makes a new generation, which takes the sessions over through state.
    expect((await h.kernel.reload("session-jsonl", { source: MEMORY_STORE })).status).toBe("committed");
    expect(h.kernel.activeGeneration("session-jsonl")).toBe(2);
    expect(h.session.call("entries")).toEqual(before);
    await h.session.call("prompt", "q2");
    expect(transcript(h.session.call("messages"))).toEqual(["user: q1", "assistant: a1", "user: q2", "assistant: a2"]);
    const ids = h.session.call("entries").map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(filesUnder(agentDir)).toEqual([]);
  });
});
