/**
 * The store keeps the context between calls and extends it by the entries a turn appends instead of
 * walking the whole path again. Whatever happens to the session — appends of every kind, a branch move, a
 * compaction, a file with context edits — each buildContext must equal the context built afresh from the
 * path (kit's buildSessionContext), and callers must get arrays of their own.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSessionContext } from "../../../kit/session/model-context.js";
import { assistant, bootStore, tempDir, user, type BootedStore } from "./harness.js";

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

async function boot(): Promise<BootedStore> {
  const b = await bootStore(tempDir());
  booted.push(b);
  return b;
}

/** The store's context next to a fresh build of its path. */
function expectFresh(b: BootedStore): void {
  const fresh = buildSessionContext(b.store.path());
  expect(b.store.buildContext()).toEqual(fresh);
}

describe("the kept context", () => {
  it("equals a fresh build after every kind of append, a branch move and a compaction", async () => {
    const b = await boot();
    const { store } = b;
    await store.newSession({ cwd: "/p" });
    expectFresh(b);
    const q1 = store.appendMessage(user("q1"));
    expectFresh(b);
    const a1 = store.appendMessage(assistant("a1"));
    store.appendModelChange("openai", "gpt-5");
    expectFresh(b);
    store.appendThinkingLevelChange("high");
    store.appendCustom("ext-state", { n: 1 });
    store.appendLabel(q1, "start");
    store.appendSessionInfo("named");
    expectFresh(b);
    store.appendCustomMessage("note", "a note for the model", true);
    store.appendMessage(assistant("a2", "openai", "gpt-5"));
    expectFresh(b);
    expect(store.buildContext().model).toEqual({ provider: "openai", modelId: "gpt-5" });
    expect(store.buildContext().thinkingLevel).toBe("high");

    // Back to q1's answer and on from there: the other branch's entries leave the context.
    store.branch(a1);
    expectFresh(b);
    store.appendBranchSummary(a1, "what the other branch did");
    store.appendMessage(user("q3"));
    expectFresh(b);
    expect(store.buildContext().messages.map((m) => m.role)).toEqual(["user", "assistant", "branchSummary", "user"]);

    // A compaction changes what comes before it.
    store.appendCompaction("summary of it all", q1, 1234);
    expectFresh(b);
    store.appendMessage(user("q4"));
    expectFresh(b);
    expect(store.buildContext().messages[0]!.role).toBe("compactionSummary");
  });

  it("hands out arrays of the caller's own", async () => {
    const b = await boot();
    await b.store.newSession({ cwd: "/p" });
    b.store.appendMessage(user("q1"));
    const first = b.store.buildContext();
    first.messages.push(user("not in the session"));
    first.entryIds.length = 0;
    b.store.appendMessage(assistant("a1"));
    expectFresh(b);
    expect(b.store.buildContext().messages).toHaveLength(2);
  });

  it("equals a fresh build when the opened path has context edits and the session goes on", async () => {
    const dir = tempDir();
    const path = join(dir, "edits.jsonl");
    const T = "2025-03-01T10:00:00.000Z";
    const lines = [
      { type: "session", version: 3, id: "edits", timestamp: T, cwd: "/p" },
      { type: "message", id: "0000000a", parentId: null, timestamp: T, message: user("q1") },
      { type: "message", id: "0000000b", parentId: "0000000a", timestamp: T, message: assistant("a1") },
      {
        type: "context_edit",
        id: "0000000c",
        parentId: "0000000b",
        timestamp: T,
        targetId: "0000000b",
        replacement: { content: "a1, shorter" },
      },
    ];
    writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const b = await boot();
    await b.store.open(path);
    expectFresh(b);
    b.store.appendMessage(user("q2"));
    b.store.appendMessage(assistant("a2"));
    expectFresh(b);
    const texts = b.store.buildContext().messages.map((m) => JSON.stringify(m.content));
    expect(texts[1]).toContain("a1, shorter");
    expect(texts).toHaveLength(4);
  });

  it("follows a switch to another session", async () => {
    const b = await boot();
    await b.store.newSession({ cwd: "/p" });
    b.store.appendMessage(user("first session"));
    expectFresh(b);
    await b.store.newSession({ cwd: "/p" });
    b.store.appendMessage(user("second session"));
    expectFresh(b);
    expect(b.store.buildContext().messages).toHaveLength(1);
  });
});
