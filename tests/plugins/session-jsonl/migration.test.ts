/**
 * Version 1 (linear, no ids) and version 2 (hookMessage role) files are upgraded as pi upgrades them:
 * in memory, and the file rewritten in the version-3 format so pi and we agree from then on.
 */
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { bootStore, brief, formatProblems, readJsonLines, tempDir, type BootedStore } from "./harness.js";

let booted: BootedStore | undefined;
afterEach(async () => {
  await booted?.kernel.shutdown();
  booted = undefined;
});

/** A private copy of a fixture in a fresh folder, and a store to open it with. */
async function fixtureCopy(name: string): Promise<{ store: BootedStore["store"]; path: string; dir: string }> {
  const dir = tempDir();
  const path = join(dir, name);
  copyFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), path);
  booted = await bootStore(dir);
  return { store: booted.store, path, dir };
}

describe("migrating old session files", () => {
  it("v1: gives entries 8-hex ids linked in order, turns firstKeptEntryIndex into firstKeptEntryId, rewrites as v3", async () => {
    const { store, path, dir } = await fixtureCopy("v1-session.jsonl");
    const report = await store.open(path);
    expect(report.migratedFrom).toBe(1);
    expect(report.setAside).toBeUndefined();
    expect(report.cwd).toBe("/home/alice/old-project");

    const entries = store.entries();
    expect(entries).toHaveLength(8);
    entries.forEach((entry, i) => {
      expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
      expect(entry.parentId).toBe(i === 0 ? null : entries[i - 1].id);
    });
    const compaction = entries[5];
    expect(compaction).toMatchObject({ type: "compaction", firstKeptEntryId: entries[3].id, tokensBefore: 1722 });
    expect(compaction).not.toHaveProperty("firstKeptEntryIndex");

    const context = store.buildContext();
    expect(brief(context.messages)).toEqual([
      "compactionSummary: The user asked about main.ts.",
      "user: Add a health check.",
      "assistant: Added GET /health.",
      "user: Now add a test.",
      "assistant: Added health.test.ts.",
    ]);
    expect(context.thinkingLevel).toBe("low");
    expect(context.model).toEqual({ provider: "anthropic", modelId: "claude-3-5-sonnet-20241022" });

    // The file itself is now version 3, with the ids we gave; no temp files are left behind.
    const lines = readJsonLines(path);
    expect(lines[0]).toMatchObject({ type: "session", version: 3, id: "5d2c9a1e-3b4f-4a6d-8e7f-9a0b1c2d3e4f" });
    expect(lines.slice(1).map((l) => l.id)).toEqual(entries.map((e) => e.id));
    expect(readdirSync(dir)).toEqual(["v1-session.jsonl"]);

    // Opening it again finds nothing to migrate.
    expect((await store.open(path)).migratedFrom).toBeUndefined();
    expect(store.entries().map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });

  it("v2: renames the hookMessage role to custom, keeps ids, rewrites as v3", async () => {
    const { store, path } = await fixtureCopy("v2-session.jsonl");
    const report = await store.open(path);
    expect(report.migratedFrom).toBe(2);
    expect(store.entries().map((e) => e.id)).toEqual(["1a2b3c4d", "2b3c4d5e", "3c4d5e6f"]);
    expect(store.entry("2b3c4d5e")).toMatchObject({
      type: "message",
      message: { role: "custom", customType: "lint-hook", content: "Lint rules: no-unused-vars" },
    });
    expect(brief(store.buildContext().messages)).toEqual([
      "user: Run the linter",
      "custom: Lint rules: no-unused-vars",
      "assistant: No lint errors.",
    ]);

    const lines = readJsonLines(path);
    expect(lines[0].version).toBe(3);
    expect(lines[2].message.role).toBe("custom");
    expect(formatProblems(path, { ownHeader: false })).toEqual([]);
  });
});
