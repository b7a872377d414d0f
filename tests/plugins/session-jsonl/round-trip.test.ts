/**
 * Every one of pi's nine entry types goes to disk and comes back equal: a new kernel (a restart) opens
 * the file and sees the same entries, leaf, labels, name and tree.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../contracts/session.js";
import {
  assistant,
  bootStore,
  formatProblems,
  readJsonLines,
  tempDir,
  toolResult,
  user,
  type BootedStore,
} from "./harness.js";

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

async function boot(agentDir: string): Promise<BootedStore> {
  const b = await bootStore(agentDir);
  booted.push(b);
  return b;
}

describe("session-jsonl round trip", () => {
  it("writes all nine entry types and reads them back equal after a restart", async () => {
    const agentDir = tempDir();
    const { store } = await boot(agentDir);
    const info = await store.newSession({ cwd: "/home/alice/project" });

    const ids: Record<string, string> = {};
    ids.model = store.appendModelChange("anthropic", "claude-sonnet-4-5");
    ids.thinking = store.appendThinkingLevelChange("high");
    ids.user = store.appendMessage(user("hello"));
    ids.assistant = store.appendMessage(assistant("hi"));
    ids.tool = store.appendMessage(toolResult("call_1", "ok"));
    ids.compaction = store.appendCompaction(
      "summary so far",
      ids.user,
      4242,
      { readFiles: ["a.ts"], modifiedFiles: [] },
      false,
    );
    ids.branchSummary = store.appendBranchSummary(
      ids.assistant,
      "left a branch",
      { readFiles: [], modifiedFiles: ["b.ts"] },
      true,
    );
    ids.custom = store.appendCustom("my-ext", { count: 42, nested: { list: [1, 2] } });
    ids.customMessage = store.appendCustomMessage("my-ext", [{ type: "text", text: "injected" }], true, {
      why: "test",
    });
    ids.label = store.appendLabel(ids.user, "start");
    ids.info = store.appendSessionInfo("  Round trip  ");

    const before = store.entries();
    expect(before.map((e) => e.type)).toEqual([
      "model_change",
      "thinking_level_change",
      "message",
      "message",
      "message",
      "compaction",
      "branch_summary",
      "custom",
      "custom_message",
      "label",
      "session_info",
    ]);
    // Each entry is a child of the one before: appends extend the leaf.
    before.forEach((entry, i) => {
      expect(entry.parentId).toBe(i === 0 ? null : before[i - 1].id);
    });
    expect(store.leafId()).toBe(ids.info);
    expect(store.label(ids.user)).toBe("start");
    expect(store.current()?.name).toBe("Round trip");
    expect(formatProblems(info.path!)).toEqual([]);

    const onDisk = readJsonLines(info.path!);
    expect(onDisk[0]).toEqual({
      type: "session",
      version: 3,
      id: info.id,
      timestamp: expect.any(String),
      cwd: "/home/alice/project",
    });
    expect(onDisk.slice(1)).toEqual(JSON.parse(JSON.stringify(before)));

    const restarted = await boot(agentDir);
    const report = await restarted.store.open(info.path!);
    expect(report).toEqual({ id: info.id, path: info.path, cwd: "/home/alice/project", name: "Round trip" });
    const after = restarted.store.entries();
    expect(after).toEqual(JSON.parse(JSON.stringify(before)) as SessionEntry[]);
    expect(restarted.store.leafId()).toBe(ids.info);
    expect(restarted.store.label(ids.user)).toBe("start");
    expect(restarted.store.entry(ids.compaction)).toMatchObject({
      type: "compaction",
      summary: "summary so far",
      firstKeptEntryId: ids.user,
      tokensBefore: 4242,
      fromHook: false,
    });
    expect(restarted.store.entry(ids.branchSummary)).toMatchObject({
      fromId: ids.assistant,
      summary: "left a branch",
      fromHook: true,
    });
    expect(restarted.store.tree()).toEqual(JSON.parse(JSON.stringify(store.tree())));
    expect(restarted.store.buildContext()).toEqual(JSON.parse(JSON.stringify(store.buildContext())));
  });

  it("writes pi's key order for each entry type", async () => {
    const { store } = await boot(tempDir());
    const info = await store.newSession({ cwd: "/p" });
    const first = store.appendMessage(user("q"));
    store.appendMessage(assistant("a"));
    store.appendModelChange("openai", "gpt-4o");
    store.appendThinkingLevelChange("low");
    store.appendCompaction("s", first, 10);
    store.appendBranchSummary(first, "b");
    store.appendCustom("ext", { n: 1 });
    store.appendCustomMessage("ext", "text", false);
    store.appendLabel(first, "l");
    store.appendSessionInfo("n");
    const keys = readJsonLines(info.path!).map((line) => Object.keys(line).join(","));
    expect(keys).toEqual([
      "type,version,id,timestamp,cwd",
      "type,id,parentId,timestamp,message",
      "type,id,parentId,timestamp,message",
      "type,id,parentId,timestamp,provider,modelId",
      "type,id,parentId,timestamp,thinkingLevel",
      "type,id,parentId,timestamp,summary,firstKeptEntryId,tokensBefore",
      "type,id,parentId,timestamp,fromId,summary",
      "type,customType,data,id,parentId,timestamp",
      "type,customType,content,display,id,parentId,timestamp",
      "type,id,parentId,timestamp,targetId,label",
      "type,id,parentId,timestamp,name",
    ]);
  });

  it("clears a label with undefined, and refuses bad input with one-line errors", async () => {
    const { store } = await boot(tempDir());
    await store.newSession({ cwd: "/p", inMemory: true });
    const id = store.appendMessage(user("q"));
    store.appendLabel(id, "mark");
    expect(store.label(id)).toBe("mark");
    store.appendLabel(id, undefined);
    expect(store.label(id)).toBeUndefined();

    expect(() => store.appendLabel("deadbeef", "x")).toThrow(/^appendLabel: target: no entry "deadbeef" in session /);
    expect(() => store.appendCompaction("s", "deadbeef", 1)).toThrow(/firstKeptEntryId: no entry "deadbeef"/);
    expect(() => store.appendThinkingLevelChange("extreme" as never)).toThrow(
      'unknown thinking level "extreme"; use one of off, minimal, low, medium, high, xhigh',
    );
    expect(() => store.appendMessage({} as never)).toThrow("appendMessage needs a message with a string `role`");
    expect(() => store.branch("nope")).toThrow(/^branch: no entry "nope"/);
    await expect(store.newSession({} as never)).rejects.toThrow("newSession needs options with a non-empty cwd");
  });

  it("says clearly that no session is open", async () => {
    const { store } = await boot(tempDir());
    expect(store.current()).toBeUndefined();
    expect(store.buildContext()).toEqual({ messages: [], entryIds: [] });
    expect(() => store.appendMessage(user("q"))).toThrow(
      "no session is open: call newSession, open or continueRecent first",
    );
  });
});
