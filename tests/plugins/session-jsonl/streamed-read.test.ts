/**
 * A clean session file is read in one streamed pass, a chunk (1 MiB) at a time: entries must come out
 * exactly as a whole-file parse gives them whatever the chunk boundaries cut — a line split across two
 * chunks, a line longer than a chunk, multi-byte characters at a boundary, blank lines, a last line
 * without a newline — and a file needing repair must still reach the careful reader. Each clean case is
 * checked on the streamed reader itself too, since the careful reader would otherwise hide its mistakes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readCleanFile } from "../../../plugins/session/session-jsonl/read-clean-file.js";
import { bootStore, tempDir, type BootedStore } from "./harness.js";

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

async function boot(): Promise<BootedStore> {
  const b = await bootStore(tempDir());
  booted.push(b);
  return b;
}

const HEADER = { type: "session", version: 3, id: "stream-test", timestamp: "2025-03-01T10:00:00.000Z", cwd: "/p" };

/** `count` user/assistant entries in a chain, texts of varied length with multi-byte characters. */
function entries(count: number, textFor: (i: number) => string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let parentId: string | null = null;
  for (let i = 0; i < count; i++) {
    const id = `e${String(i).padStart(7, "0")}`;
    const message =
      i % 2 === 0
        ? { role: "user", content: [{ type: "text", text: textFor(i) }], timestamp: 1 }
        : {
            role: "assistant",
            content: [{ type: "text", text: textFor(i) }],
            api: "faux",
            provider: "faux",
            model: "faux-1",
            usage: {
              input: 1,
              output: 1,
              cacheRead: 0,
              cacheWrite: 0,
              totalTokens: 2,
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
            },
            stopReason: "stop",
            timestamp: 1,
          };
    out.push({ type: "message", id, parentId, timestamp: "2025-03-01T10:00:01.000Z", message });
    parentId = id;
  }
  return out;
}

function write(path: string, records: Array<Record<string, unknown>>, tail = "\n"): string {
  const text = records.map((r) => JSON.stringify(r)).join("\n") + tail;
  writeFileSync(path, text);
  return text;
}

describe("streamed read of a clean session file", () => {
  it("reads an empty or whitespace-only file as no header and no entries", () => {
    const path = join(tempDir(), "empty.jsonl");
    writeFileSync(path, "\n  \n");
    expect(readCleanFile(path)).toEqual({ header: undefined, entries: [], endsWithNewline: true });
  });

  it("reads a 3 MiB file whose lines straddle chunk boundaries, with multi-byte text, exactly as written", async () => {
    const { store } = await boot();
    const path = join(tempDir(), "big.jsonl");
    // Lengths chosen so boundaries fall inside lines and inside multi-byte characters ("é" is 2 bytes, "😀" 4).
    const records = [HEADER, ...entries(3_001, (i) => `${"é".repeat(i % 97)}😀${"x".repeat((i * 7919) % 1_900)}`)];
    const text = write(path, records);
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * 1024 * 1024);

    expect(readCleanFile(path)).toEqual({ header: HEADER, entries: records.slice(1), endsWithNewline: true });
    const report = await store.open(path);
    expect(report.setAside).toBeUndefined();
    expect(store.entries()).toEqual(records.slice(1));
    expect(store.leafId()).toBe(records.at(-1)!.id);
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("reads a line longer than a chunk (2.5 MiB of text in one entry)", async () => {
    const { store } = await boot();
    const path = join(tempDir(), "long-line.jsonl");
    const long = "ab😀".repeat(650_000);
    const records = [HEADER, ...entries(3, (i) => (i === 1 ? long : `short ${i}`))];
    write(path, records);
    expect(readCleanFile(path)?.entries).toEqual(records.slice(1));
    await store.open(path);
    const read = store.entries();
    expect(read).toHaveLength(3);
    expect((read[1] as { message: { content: Array<{ text: string }> } }).message.content[0]!.text).toBe(long);
  });

  it("skips blank lines and reads a last line that has no newline, and the next append starts one", async () => {
    const { store } = await boot();
    const path = join(tempDir(), "blank.jsonl");
    const records = [HEADER, ...entries(4, (i) => `t${i}`)];
    const lines = records.map((r) => JSON.stringify(r));
    writeFileSync(path, `${lines[0]}\n\n   \n${lines.slice(1, 3).join("\n")}\n\r\n${lines.slice(3).join("\n")}`);
    expect(readCleanFile(path)).toEqual({ header: HEADER, entries: records.slice(1), endsWithNewline: false });
    await store.open(path);
    expect(store.entries()).toEqual(records.slice(1));
    store.appendMessage({ role: "user", content: "after", timestamp: 2 });
    const after = readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    expect(after).toHaveLength(records.length + 1);
    for (const line of after) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("hands a file with a bad line past the first chunk to the careful reader, which sets it aside", async () => {
    const { store } = await boot();
    const path = join(tempDir(), "bad-late.jsonl");
    const records = [HEADER, ...entries(1_500, (i) => "y".repeat(900 + (i % 300)))];
    const lines = records.map((r) => JSON.stringify(r));
    lines.splice(1_400, 0, "not json at all");
    writeFileSync(path, `${lines.join("\n")}\n`);
    expect(readCleanFile(path)).toBeUndefined();
    const report = await store.open(path);
    expect(report.setAside?.lines).toBe(1);
    expect(store.entries()).toHaveLength(1_500);
    expect(readFileSync(path, "utf8")).not.toContain("not json at all");
  });

  it("hands an older format to the careful reader, which upgrades it", async () => {
    const { store } = await boot();
    const path = join(tempDir(), "v2.jsonl");
    write(path, [{ ...HEADER, version: 2 }, ...entries(3, (i) => `v2 ${i}`)]);
    expect(readCleanFile(path)).toBeUndefined();
    const report = await store.open(path);
    expect(report.migratedFrom).toBe(2);
    expect(store.entries()).toHaveLength(3);
  });
});
