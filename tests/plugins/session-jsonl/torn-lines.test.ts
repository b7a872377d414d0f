/**
 * Crash safety on open: a line that is not a whole entry — the torn last line of a crash mid-write, or
 * garbage in the middle — is moved to a side file and reported through OpenReport.setAside; nothing is
 * dropped silently and nothing else is rewritten (a torn tail is cut off in place, same inode).
 */
import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, bootStore, formatProblems, readJsonLines, tempDir, user, type BootedStore } from "./harness.js";

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

async function boot(agentDir: string): Promise<BootedStore> {
  const b = await bootStore(agentDir);
  booted.push(b);
  return b;
}

/** A session of three messages written by the store, and a second store (a restart) to open it. */
async function writtenSession(): Promise<{ path: string; ids: string[]; reopen: BootedStore; dir: string }> {
  const agentDir = tempDir();
  const { store } = await boot(agentDir);
  const info = await store.newSession({ cwd: "/p" });
  const ids = [store.appendMessage(user("q1")), store.appendMessage(assistant("a1")), store.appendMessage(user("q2"))];
  return { path: info.path!, ids, reopen: await boot(agentDir), dir: join(info.path!, "..") };
}

describe("torn and invalid lines", () => {
  it("sets a torn last line aside, reports it, and truncates in place without rewriting anything else", async () => {
    const { path, ids, reopen } = await writtenSession();
    const whole = readFileSync(path);
    const torn = `{"type":"message","id":"0badc0de","parentId":"${ids[2]}","timestamp":"2025-03-01T10:`;
    appendFileSync(path, torn);
    const inode = statSync(path).ino;

    const report = await reopen.store.open(path);
    expect(report.setAside).toEqual({
      lines: 1,
      file: expect.stringMatching(/\.jsonl\.torn-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/),
    });
    expect(report.setAside!.file.startsWith(path)).toBe(true);
    expect(readFileSync(report.setAside!.file, "utf8")).toBe(`${torn}\n`);
    expect(readFileSync(path).equals(whole)).toBe(true);
    expect(statSync(path).ino).toBe(inode);
    expect(reopen.store.entries().map((e) => e.id)).toEqual(ids);
    expect(reopen.store.leafId()).toBe(ids[2]);

    // The session goes on: the next append is a whole line of its own.
    reopen.store.appendMessage(assistant("a2"));
    expect(formatProblems(path)).toEqual([]);
    expect(readJsonLines(path)).toHaveLength(5);
  });

  it("treats a complete but unparsable last line the same way", async () => {
    const { path, ids, reopen } = await writtenSession();
    appendFileSync(path, '{"type":"message","id":\n');
    const report = await reopen.store.open(path);
    expect(report.setAside?.lines).toBe(1);
    expect(reopen.store.entries().map((e) => e.id)).toEqual(ids);
    expect(formatProblems(path)).toEqual([]);
  });

  it("keeps the torn bytes exactly, even when the crash split a multi-byte character", async () => {
    const { path, ids, reopen } = await writtenSession();
    const whole = readFileSync(path);
    const tornBytes = Buffer.concat([
      Buffer.from('{"type":"message","message":{"content":"caf', "utf8"),
      Buffer.from([0xc3]),
    ]);
    appendFileSync(path, tornBytes);
    const report = await reopen.store.open(path);
    expect(readFileSync(report.setAside!.file).equals(Buffer.concat([tornBytes, Buffer.from("\n")]))).toBe(true);
    expect(readFileSync(path).equals(whole)).toBe(true);
    expect(reopen.store.entries().map((e) => e.id)).toEqual(ids);
  });

  it("sets invalid lines in the middle aside too, keeping every other line byte for byte", async () => {
    const { path, ids, reopen, dir } = await writtenSession();
    const lines = readFileSync(path, "utf8").split("\n");
    // Garbage from another program, valid JSON that is no entry, and a torn tail.
    const garbage = ["\u0000\u0000 binary junk", "[1,2,3]", '{"no":"type"}', '{"type":"message","parentId":null}'];
    const damaged = `${[lines[0], lines[1], garbage[0], garbage[1], lines[2], garbage[2], garbage[3], lines[3]].join("\n")}\n{"type":"mes`;
    writeFileSync(path, damaged);

    const report = await reopen.store.open(path);
    expect(report.setAside?.lines).toBe(5);
    expect(readFileSync(report.setAside!.file, "utf8")).toBe(
      [...garbage, '{"type":"mes'].map((l) => `${l}\n`).join(""),
    );
    expect(readFileSync(path, "utf8")).toBe(`${lines.slice(0, 4).join("\n")}\n`);
    expect(reopen.store.entries().map((e) => e.id)).toEqual(ids);
    expect(readdirSync(dir).sort()).toEqual([path.split("/").at(-1), report.setAside!.file.split("/").at(-1)].sort());
  });

  it("starts over in a file whose only line is a torn header, keeping the torn bytes aside", async () => {
    const dir = tempDir();
    const path = join(dir, "torn-header.jsonl");
    writeFileSync(path, '{"type":"session","version":3,"id":"01944f2a-');
    const { store } = await boot(dir);
    const report = await store.open(path);
    expect(report.setAside?.lines).toBe(1);
    expect(readFileSync(report.setAside!.file, "utf8")).toBe('{"type":"session","version":3,"id":"01944f2a-\n');
    const lines = readJsonLines(path);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "session", version: 3, id: report.id });
  });

  it("starts a session in an empty file and writes its header at once, as pi does", async () => {
    const dir = tempDir();
    const path = join(dir, "empty.jsonl");
    writeFileSync(path, "");
    const { store } = await boot(dir);
    const report = await store.open(path);
    expect(report.setAside).toBeUndefined();
    expect(readJsonLines(path)).toEqual([
      { type: "session", version: 3, id: report.id, timestamp: expect.any(String), cwd: process.cwd() },
    ]);
    store.appendMessage(user("q"));
    expect(formatProblems(path)).toEqual([]);
  });

  it("starts a new line when another program left the last line without its newline", async () => {
    const { path, ids, reopen } = await writtenSession();
    const foreign = {
      type: "custom",
      customType: "other-tool",
      data: {},
      id: "0ddba11a",
      parentId: ids[2],
      timestamp: "2025-03-01T11:00:00.000Z",
    };
    appendFileSync(path, JSON.stringify(foreign));
    const report = await reopen.store.open(path);
    expect(report.setAside).toBeUndefined();
    expect(reopen.store.leafId()).toBe("0ddba11a");
    reopen.store.appendMessage(assistant("after"));
    expect(formatProblems(path)).toEqual([]);
    expect(readJsonLines(path).at(-2)).toEqual(foreign);
  });

  it("refuses a file that is not a session, with one clear line, and leaves it untouched", async () => {
    const dir = tempDir();
    const path = join(dir, "notes.jsonl");
    writeFileSync(path, '{"type":"note","text":"hello"}\n{"broken\n');
    const { store } = await boot(dir);
    await expect(store.open(path)).rejects.toThrow(
      `not a session file (its first line is not a session header): ${path}`,
    );
    expect(readFileSync(path, "utf8")).toBe('{"type":"note","text":"hello"}\n{"broken\n');
    expect(store.current()).toBeUndefined();
  });

  it("refuses another program's JSONL (no `type` fields) untouched, with nothing set aside", async () => {
    const dir = tempDir();
    const path = join(dir, "data.jsonl");
    const data = '{"a":1}\n{"b":2}\n';
    writeFileSync(path, data);
    const { store } = await boot(dir);
    await expect(store.open(path)).rejects.toThrow(
      `not a session file (its first line is not a session header): ${path}`,
    );
    expect(readFileSync(path, "utf8")).toBe(data);
    expect(readdirSync(dir)).toEqual(["data.jsonl"]);
    expect(store.current()).toBeUndefined();
  });

  it("starts a new session at a path with no file, and writes it there once an answer arrives (as pi does)", async () => {
    const dir = tempDir();
    const path = join(dir, "sub", "new.jsonl");
    const { store } = await boot(dir);
    const info = await store.open(path);
    expect(info.path).toBe(path);
    expect(store.entries()).toEqual([]);
    const ids = [store.appendMessage(user("q")), store.appendMessage(assistant("a"))];
    expect(formatProblems(path)).toEqual([]);
    expect(readJsonLines(path).map((e) => e.id)).toEqual([info.id, ...ids]);
  });
});
