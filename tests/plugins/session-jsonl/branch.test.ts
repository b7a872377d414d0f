/**
 * The active leaf survives a restart. pi infers the leaf from the last line, so `branch(id)` appends a
 * leaf marker (a `custom` entry "pi-host/leaf" whose parent is the new leaf): we resume at the leaf, and
 * so does pi. Markers are bookkeeping: never in the context, the user's tree, paths or message counts.
 */
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  assistant,
  bootStore,
  brief,
  storedText,
  filePerSession,
  appendForeign,
  formatProblems,
  readJsonLines,
  tempDir,
  user,
  type BootedStore,
} from "./harness.js";
import type { TreeNode } from "../../../contracts/session.js";

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

async function boot(agentDir: string): Promise<BootedStore> {
  const b = await bootStore(agentDir);
  booted.push(b);
  return b;
}

/** q1 → a1 → q2 → a2 in a new session file. */
async function fourMessages(agentDir: string) {
  const { store } = await boot(agentDir);
  const info = await store.newSession({ cwd: "/p" });
  const [q1, a1, q2, a2] = [
    store.appendMessage(user("q1")),
    store.appendMessage(assistant("a1")),
    store.appendMessage(user("q2")),
    store.appendMessage(assistant("a2")),
  ];
  return { store, path: info.path!, q1, a1, q2, a2 };
}

/** pi's reading of a file: the last line is the leaf; walk its parents; keep the message entries. */
function piContextTexts(path: string): string[] {
  const lines = readJsonLines(path).slice(1);
  const byId = new Map(lines.map((l) => [l.id, l]));
  const texts: string[] = [];
  for (let e = lines.at(-1); e !== undefined; e = e.parentId ? byId.get(e.parentId) : undefined) {
    if (e.type === "message") texts.unshift(e.message.content[0].text);
  }
  return texts;
}

function allNodes(roots: TreeNode[]): TreeNode[] {
  const out: TreeNode[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    stack.push(...node.children);
  }
  return out;
}

describe("branch and the persisted leaf", () => {
  it("keeps a moved leaf across a restart, and pi's last-line rule lands on the same leaf", async () => {
    const agentDir = tempDir();
    const { store, path, q1, a1, q2 } = await fourMessages(agentDir);
    store.branch(a1);
    expect(store.leafId()).toBe(a1);
    expect(brief(store.buildContext().messages)).toEqual(["user: q1", "assistant: a1"]);

    const last = readJsonLines(path).at(-1)!;
    expect(last).toEqual({
      type: "custom",
      customType: "pi-host/leaf",
      data: {},
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      parentId: a1,
      timestamp: expect.any(String),
    });
    expect(piContextTexts(path)).toEqual(["q1", "a1"]);

    const restarted = await boot(agentDir);
    await restarted.store.open(path);
    expect(restarted.store.leafId()).toBe(a1);
    expect(brief(restarted.store.buildContext().messages)).toEqual(["user: q1", "assistant: a1"]);

    // The next entry hangs from the leaf, not from the marker.
    const q3 = restarted.store.appendMessage(user("q3"));
    expect(restarted.store.entry(q3)?.parentId).toBe(a1);
    expect(restarted.store.path().map((e) => e.id)).toEqual([q1, a1, q3]);
    expect(restarted.store.entry(q2)?.parentId).toBe(a1);
    expect(formatProblems(path)).toEqual([]);
  });

  it("hides markers from the context, paths, the tree and the listing's message count", async () => {
    const agentDir = tempDir();
    const { store, a1, q2 } = await fourMessages(agentDir);
    store.branch(a1);
    store.branch(q2);
    store.branch(a1);
    const markers = store.entries().filter((e) => e.type === "custom");
    expect(markers).toHaveLength(3);

    expect(store.buildContext().messages.every((m) => m.role !== "custom")).toBe(true);
    expect(store.path().some((e) => e.type === "custom")).toBe(false);
    const nodes = allNodes(store.tree());
    expect(nodes).toHaveLength(4);
    expect(nodes.some((n) => n.entry.type === "custom")).toBe(false);
    const [listed] = await store.list({ cwd: "/p" });
    expect(listed.messageCount).toBe(4);
  });

  it("shows entries pi appended under a marker as children of the marker's parent", async () => {
    const agentDir = tempDir();
    const { store, path, a1 } = await fourMessages(agentDir);
    store.branch(a1);
    const marker = store.entries().at(-1)!;
    // pi resumes at the marker (its last line) and writes its next message under it.
    const piLine = {
      type: "message",
      id: "0a1b2c3d",
      parentId: marker.id,
      timestamp: "2025-03-02T00:00:00.000Z",
      message: user("from pi"),
    };
    appendForeign(path, piLine);

    const restarted = await boot(agentDir);
    await restarted.store.open(path);
    expect(restarted.store.leafId()).toBe("0a1b2c3d");
    expect(brief(restarted.store.buildContext().messages)).toEqual(["user: q1", "assistant: a1", "user: from pi"]);
    const a1Node = restarted.store.tree()[0].children[0];
    expect(a1Node.entry.id).toBe(a1);
    expect(a1Node.children.map((c) => c.entry.id).sort()).toEqual([restarted.store.entries()[2].id, "0a1b2c3d"].sort());
    expect(restarted.store.path().map((e) => e.type)).toEqual(["message", "message", "message"]);
  });

  it("persists a move to before the first entry (branch(null)); the next entry is a new root", async () => {
    const agentDir = tempDir();
    const { store, path } = await fourMessages(agentDir);
    store.branch(null);
    expect(store.leafId()).toBeNull();
    expect(store.buildContext()).toEqual({ messages: [], entryIds: [] });
    expect(piContextTexts(path)).toEqual([]);

    const restarted = await boot(agentDir);
    await restarted.store.open(path);
    expect(restarted.store.leafId()).toBeNull();
    const root = restarted.store.appendMessage(user("start over"));
    expect(restarted.store.entry(root)?.parentId).toBeNull();
    expect(restarted.store.tree()).toHaveLength(2);
  });

  it("writes nothing when the leaf does not move, and nothing at all in memory", async () => {
    const agentDir = tempDir();
    const { store, path, a2 } = await fourMessages(agentDir);
    const before = storedText(path);
    store.branch(a2);
    expect(storedText(path)).toBe(before);

    await store.newSession({ cwd: "/p", inMemory: true });
    const q = store.appendMessage(user("q"));
    store.appendMessage(assistant("a"));
    store.branch(q);
    expect(store.leafId()).toBe(q);
    expect(store.entries()).toHaveLength(2);
    expect(storedText(path)).toBe(before);
    expect((await store.list({ cwd: "/p" })).map((s) => s.path)).toEqual([path]);
    if (filePerSession()) expect(readdirSync(dirname(path))).toHaveLength(1);
  });
});
