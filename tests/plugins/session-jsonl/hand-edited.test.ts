/**
 * Hand-edited session files open with one clear line per damaged entry, never a TypeError: a message
 * entry without a usable message is skipped (its children hang from its parent), a parent loop is cut,
 * and an assistant message without usage counts as zero usage. The file itself is not changed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, bootStore, tempDir, user, type BootedStore } from "./harness.js";

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

const HEADER = {
  type: "session",
  version: 3,
  id: "01944f2a-0000-7000-8000-000000000000",
  timestamp: "2025-03-01T10:00:00.000Z",
  cwd: "/p",
};

function entry(id: string, parentId: string | null, message: unknown): Record<string, unknown> {
  return { type: "message", id, parentId, timestamp: "2025-03-01T10:00:01.000Z", message };
}

describe("a hand-edited session", () => {
  it("opens with one line per bad entry, skips or cuts what is broken, and leaves the file as it was", async () => {
    const noUsage: Record<string, unknown> = { ...assistant("a1") };
    delete noUsage.usage;
    const lines = [
      HEADER,
      entry("0000000a", null, user("q1")),
      entry("0000000b", "0000000a", noUsage),
      entry("0000000c", "0000000b", null),
      entry("0000000d", "0000000c", { role: "user", content: 42, timestamp: 1 }),
      entry("0000000e", "0000000d", { ...assistant("a2"), content: "not blocks" }),
      entry("00000c01", "00000c02", user("loop 1")),
      entry("00000c02", "00000c01", user("loop 2")),
      entry("0000000f", "0000000e", assistant("a3")),
    ];
    const dir = tempDir();
    const path = join(dir, "edited.jsonl");
    const text = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    writeFileSync(path, text);
    const b = await bootStore(dir);
    booted.push(b);

    const report = await b.store.open(path);
    expect(report.problems).toEqual([
      `${path}: entry 0000000c has no message object; skipped`,
      `${path}: entry 0000000d has a user message whose content is neither text nor a list of blocks; skipped`,
      `${path}: entry 0000000e has an assistant message whose content is not a list of blocks; skipped`,
      `${path}: entry 00000c02 has a parent chain that loops back to it; the loop is cut there (the entry becomes a root)`,
    ]);
    expect(readFileSync(path, "utf8")).toBe(text);

    // The children of skipped entries hang from the nearest kept ancestor: the leaf's path stays whole.
    expect(b.store.leafId()).toBe("0000000f");
    expect(b.store.path().map((e) => e.id)).toEqual(["0000000a", "0000000b", "0000000f"]);
    const context = b.store.buildContext();
    expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant", "assistant"]);
    expect((context.messages[1] as { usage: unknown }).usage).toEqual({
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    });

    // The loop is shown (one root), and every walk over the tree ends.
    const roots = b.store.tree().map((node) => node.entry.id);
    expect(roots).toEqual(["0000000a", "00000c02"]);
    expect(b.store.path("00000c01").map((e) => e.id)).toEqual(["00000c02", "00000c01"]);

    // The session goes on.
    b.store.appendMessage(user("q2"));
    expect(b.store.leafId()).not.toBe("0000000f");
  });

  it("cuts an entry that names itself as its parent", async () => {
    const dir = tempDir();
    const path = join(dir, "self.jsonl");
    writeFileSync(
      path,
      `${[HEADER, entry("0000000a", "0000000a", user("me"))].map((line) => JSON.stringify(line)).join("\n")}\n`,
    );
    const b = await bootStore(dir);
    booted.push(b);
    const report = await b.store.open(path);
    expect(report.problems).toEqual([
      `${path}: entry 0000000a has a parent chain that loops back to it; the loop is cut there (the entry becomes a root)`,
    ]);
    expect(b.store.path().map((e) => e.id)).toEqual(["0000000a"]);
  });
});
