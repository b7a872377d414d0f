/**
 * fork copies the path to an entry (default: the leaf) into a new session file in the same folder whose
 * header names the session it came from (`parentSession`), re-creates the labels of copied entries, and
 * makes the copy the open session. The original file is left as it was.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  assistant,
  bootStore,
  formatProblems,
  readJsonLines,
  storedText,
  tempDir,
  user,
  type BootedStore,
} from "./harness.js";

let booted: BootedStore | undefined;
afterEach(async () => {
  await booted?.kernel.shutdown();
  booted = undefined;
});

/** q1 → a1 → (q2 → a2 | q3 → a3, the leaf), with a label on q1 and one on q2. */
async function branched() {
  const agentDir = tempDir();
  booted = await bootStore(agentDir);
  const store = booted.store;
  const original = await store.newSession({ cwd: "/p" });
  const q1 = store.appendMessage(user("q1"));
  const a1 = store.appendMessage(assistant("a1"));
  const q2 = store.appendMessage(user("q2"));
  const a2 = store.appendMessage(assistant("a2"));
  store.appendLabel(q2, "other branch");
  store.branch(a1);
  const q3 = store.appendMessage(user("q3"));
  const a3 = store.appendMessage(assistant("a3"));
  store.appendLabel(q1, "start");
  return { store, original, agentDir, q1, a1, q2, a2, q3, a3 };
}

describe("fork", () => {
  it("writes a new file whose header has parentSession and which holds the path and its labels", async () => {
    const { store, original, q1, a1, q3, a3 } = await branched();
    const originalText = storedText(original.path!);
    const contextBefore = store.buildContext();

    const forked = await store.fork();
    expect(forked.parentSession).toBe(original.path);
    expect(forked.id).not.toBe(original.id);
    expect(dirname(forked.path!)).toBe(dirname(original.path!));
    expect(store.current()).toEqual(forked);

    const lines = readJsonLines(forked.path!);
    expect(lines[0]).toEqual({
      type: "session",
      version: 3,
      id: forked.id,
      timestamp: expect.any(String),
      cwd: "/p",
      parentSession: original.path,
    });
    // The path (no leaf markers, no label entries of its own), then the re-created label.
    expect(lines.slice(1, 5).map((l) => l.id)).toEqual([q1, a1, q3, a3]);
    expect(lines[5]).toMatchObject({ type: "label", targetId: q1, label: "start", parentId: a3 });
    expect(lines).toHaveLength(6);
    expect(formatProblems(forked.path!)).toEqual([]);

    expect(store.label(q1)).toBe("start");
    expect(store.buildContext()).toEqual(contextBefore);
    expect(storedText(original.path!)).toBe(originalText);
  });

  it("forks at an earlier entry, leaving out the other branch", async () => {
    const { store, q1, a1, q2 } = await branched();
    const forked = await store.fork(q2);
    expect(store.entries().map((e) => e.type)).toEqual(["message", "message", "message", "label", "label"]);
    expect(
      store
        .path()
        .map((e) => e.id)
        .slice(0, 3),
    ).toEqual([q1, a1, q2]);
    expect(store.label(q2)).toBe("other branch");
    expect(store.tree()).toHaveLength(1);
    expect(
      readJsonLines(forked.path!)
        .slice(1, 4)
        .map((l) => l.id),
    ).toEqual([q1, a1, q2]);
  });

  it("defers writing a fork without an assistant message until one arrives, as pi does", async () => {
    const { store, q1 } = await branched();
    const forked = await store.fork(q1);
    expect(existsSync(forked.path!)).toBe(false);
    store.appendMessage(assistant("a1 again"));
    expect(readJsonLines(forked.path!).map((l) => l.type)).toEqual(["session", "message", "label", "message"]);
  });

  it("forks an in-memory session in memory, with no parent file", async () => {
    booted = await bootStore(tempDir());
    const store = booted.store;
    await store.newSession({ cwd: "/p", inMemory: true });
    const q = store.appendMessage(user("q"));
    store.appendMessage(assistant("a"));
    const forked = await store.fork(q);
    expect(forked.path).toBeUndefined();
    expect(forked.parentSession).toBeUndefined();
    expect(store.entries().map((e) => e.id)).toEqual([q]);
  });

  it("refuses an unknown entry with a clear error and keeps the session open", async () => {
    const { store, original } = await branched();
    await expect(store.fork("ffffffff")).rejects.toThrow(/^fork: no entry "ffffffff" in session /);
    expect(store.current()?.id).toBe(original.id);
  });
});
