/**
 * A session file in pi's exact format (fixtures/pi-session.jsonl: a tool-using conversation, a
 * compaction, a /tree branch with a branch summary, a model switch, a bash execution, a label, a name,
 * an extension entry and an extension message) opens and builds the context pi builds from it. The
 * expectations were checked against pi 0.73.1's own SessionManager.
 */
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, bootStore, brief, formatProblems, tempDir, user, type BootedStore } from "./harness.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/pi-session.jsonl", import.meta.url));

let booted: BootedStore | undefined;
afterEach(async () => {
  await booted?.kernel.shutdown();
  booted = undefined;
});

/** A private copy of the fixture, opened in a fresh store. */
async function openFixture(): Promise<{ b: BootedStore; path: string }> {
  const dir = tempDir();
  const path = join(dir, "2025-01-10T09-00-00-000Z_01944f2a-6b00-7c3d-9e4f-8a5b6c7d8e9f.jsonl");
  copyFileSync(FIXTURE, path);
  booted = await bootStore(dir);
  return { b: booted, path };
}

describe("opening a pi-written session", () => {
  it("opens without repairs and reads the header, name and leaf as pi does", async () => {
    const { b, path } = await openFixture();
    const report = await b.store.open(path);
    expect(report).toEqual({
      id: "01944f2a-6b00-7c3d-9e4f-8a5b6c7d8e9f",
      path,
      cwd: "/home/alice/project",
      name: "Typo fix and rename",
    });
    expect(readFileSync(path, "utf8")).toBe(readFileSync(FIXTURE, "utf8"));
    expect(b.store.leafId()).toBe("c07d1892");
    expect(b.store.entries()).toHaveLength(24);
    expect(b.store.label("7b2e3c4d")).toBe("start");
  });

  it("builds the context from the leaf: compaction summary, kept messages, then the branch after it", async () => {
    const { b, path } = await openFixture();
    await b.store.open(path);
    const context = b.store.buildContext();
    expect(brief(context.messages)).toEqual([
      "compactionSummary: ## Goal\nHelp with the project.\n\n## Progress\n- Listed the files.",
      "user: Read README.md",
      "assistant: [toolCall]",
      "toolResult: # Projcet\nA small tool.",
      "assistant: The README has a title with a typo: Projcet.",
      "branchSummary: The typo in README.md was fixed with the edit tool.",
      "user: Rename the project to Widget instead",
      "assistant: Renamed the project to Widget.",
      "bashExecution: git status --short",
      "custom: Open todos: release",
    ]);
    expect(context.entryIds).toEqual([
      "f3a0b4c5",
      "bf6c7081",
      "c07d8192",
      "d18e92a3",
      "e29fa3b4",
      "48f5091a",
      "6a17b23c",
      "7b28c34d",
      "8c39d45e",
      "c07d1892",
    ]);
    expect(context.model).toEqual({ provider: "openai", modelId: "gpt-4o" });
    expect(context.thinkingLevel).toBe("medium");
    expect(context.messages[0]).toEqual({
      role: "compactionSummary",
      summary: expect.stringContaining("## Goal"),
      tokensBefore: 5400,
      timestamp: Date.parse("2025-01-10T09:01:17.000Z"),
    });
    expect(context.messages[5]).toEqual({
      role: "branchSummary",
      summary: "The typo in README.md was fixed with the edit tool.",
      fromId: "f3a0b4c5",
      timestamp: Date.parse("2025-01-10T09:01:52.000Z"),
    });
    expect(context.messages[9]).toEqual({
      role: "custom",
      customType: "todo-ext",
      content: "Open todos: release",
      display: true,
      details: { count: 1 },
      timestamp: Date.parse("2025-01-10T09:02:48.000Z"),
    });
  });

  it("builds the abandoned branch's context after moving the leaf there, with that branch's model", async () => {
    const { b, path } = await openFixture();
    await b.store.open(path);
    b.store.branch("37e4f809");
    const context = b.store.buildContext();
    expect(context.messages.map((m) => m.role)).toEqual([
      "compactionSummary",
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    expect(context.entryIds.slice(5)).toEqual(["04b1c5d6", "15c2d6e7", "26d3e7f8", "37e4f809"]);
    expect(context.model).toEqual({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
  });

  it("shows the tree with both branches under the compaction, oldest first, and the label", async () => {
    const { b, path } = await openFixture();
    await b.store.open(path);
    const roots = b.store.tree();
    expect(roots).toHaveLength(1);
    let node = roots[0];
    const spine: string[] = [];
    while (node.children.length === 1) {
      spine.push(node.entry.id);
      node = node.children[0];
    }
    expect(node.entry.id).toBe("f3a0b4c5");
    expect(node.children.map((c) => c.entry.id)).toEqual(["04b1c5d6", "48f5091a"]);
    const labelled = roots[0].children[0].children[0];
    expect(labelled.entry.id).toBe("7b2e3c4d");
    expect(labelled.label).toBe("start");
  });

  it("continues the file in place: our appends keep it a valid pi file and land under the leaf", async () => {
    const { b, path } = await openFixture();
    await b.store.open(path);
    const q = b.store.appendMessage(user("And bump the version"));
    b.store.appendMessage(assistant("Bumped to 1.1.0.", "openai", "gpt-4o"));
    expect(b.store.entry(q)?.parentId).toBe("c07d1892");
    expect(formatProblems(path)).toEqual([]);
    const original = readFileSync(FIXTURE, "utf8");
    expect(readFileSync(path, "utf8").startsWith(original)).toBe(true);
  });
});
