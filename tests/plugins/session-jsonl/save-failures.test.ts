/**
 * Session data safety when the disk misbehaves: a write that fails part-way (a full disk) is cut back so
 * the file stays whole lines, the entries wait in memory and reach the file with the next append that
 * succeeds, and the failure is reported once; a session file deleted mid-run is written again in full
 * and reported; a file replaced under the same name gets the next append.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_SAVE_ERROR_EVENT, type SessionSaveProblem } from "../../../contracts/session.js";
import { nodeAppendIo, type AppendIo } from "../../../plugins/session/session-jsonl/append-file.js";
import type { StoreState } from "../../../plugins/session/session-jsonl/state.js";
import { JsonlSessionStore } from "../../../plugins/session/session-jsonl/store.js";
import { assistant, bootStore, formatProblems, readJsonLines, tempDir, user, type BootedStore } from "./harness.js";

/** A disk that can be made full: while full, a write takes `room` bytes and then fails with ENOSPC. */
class FillableDisk implements AppendIo {
  full = false;
  room = 0;
  write(fd: number, buffer: Buffer, offset: number, length: number): number {
    if (!this.full) return nodeAppendIo.write(fd, buffer, offset, length);
    if (this.room === 0) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    const count = nodeAppendIo.write(fd, buffer, offset, Math.min(this.room, length));
    this.room -= count;
    return count;
  }
}

/** A store on a disk the test controls, with its reports collected and its state kept like the plugin's. */
function storeOn(disk: AppendIo): { store: JsonlSessionStore; reports: SessionSaveProblem[]; state: () => StoreState } {
  let state: StoreState = {};
  const reports: SessionSaveProblem[] = [];
  const store = new JsonlSessionStore({
    agentDir: tempDir(),
    getState: () => state,
    setState: (next) => (state = next),
    report: (problem) => reports.push(problem),
    io: disk,
  });
  return { store, reports, state: () => state };
}

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

describe("a write that fails part-way", () => {
  it("leaves the file on a line boundary, keeps the entries, reports once, and writes them all once the disk has room", async () => {
    const disk = new FillableDisk();
    const { store, reports } = storeOn(disk);
    const info = await store.newSession({ cwd: "/p" });
    const path = info.path!;
    const saved = [store.appendMessage(user("q1")), store.appendMessage(assistant("a1"))];
    const before = readFileSync(path);

    disk.full = true;
    disk.room = 37; // Half a line gets onto the disk, then ENOSPC.
    const lost1 = store.appendMessage(user("q2 ".repeat(50)));
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(reports).toEqual([
      { reason: "write", path, error: expect.stringContaining(`cannot save the session to ${path}: ENOSPC`) },
    ]);

    // Still full: nothing more is reported, the file is still whole lines.
    const lost2 = store.appendMessage(assistant("a2"));
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(reports).toHaveLength(1);
    expect(store.entries().map((e) => e.id)).toEqual([...saved, lost1, lost2]);

    // Room again: the next append writes everything that was missing, in order.
    disk.full = false;
    const after = store.appendMessage(user("q3"));
    expect(formatProblems(path)).toEqual([]);
    expect(
      readJsonLines(path)
        .slice(1)
        .map((e) => e.id),
    ).toEqual([...saved, lost1, lost2, after]);
    expect(reports).toHaveLength(1);

    // A fresh store reads the same session back.
    const reader = storeOn(nodeAppendIo).store;
    await reader.open(path);
    expect(reader.entries()).toEqual(store.entries());
  });

  it("keeps the first flush (header and every entry) for later when it fails", async () => {
    const disk = new FillableDisk();
    const { store, reports } = storeOn(disk);
    const { path } = await store.newSession({ cwd: "/p" });
    store.appendMessage(user("q1"));
    disk.full = true;
    disk.room = 10;
    store.appendMessage(assistant("a1"));
    expect(readFileSync(path!, "utf8")).toBe("");
    expect(reports.map((r) => r.reason)).toEqual(["write"]);
    disk.full = false;
    store.appendMessage(user("q2"));
    expect(formatProblems(path!)).toEqual([]);
    expect(readJsonLines(path!).map((e) => e.type)).toEqual(["session", "message", "message", "message"]);
  });

  it("carries entries a failed write left out across a reload of the store", async () => {
    const disk = new FillableDisk();
    const first = storeOn(disk);
    const { path } = await first.store.newSession({ cwd: "/p" });
    first.store.appendMessage(user("q1"));
    first.store.appendMessage(assistant("a1"));
    disk.full = true;
    const waiting = first.store.appendMessage(user("q2"));
    first.store.close();

    // The next generation gets the state the first one left, and a disk with room.
    let state = first.state();
    const next = new JsonlSessionStore({ agentDir: tempDir(), getState: () => state, setState: (s) => (state = s) });
    expect(next.leafId()).toBe(waiting);
    const last = next.appendMessage(assistant("a2"));
    expect(formatProblems(path!)).toEqual([]);
    expect(
      readJsonLines(path!)
        .slice(-2)
        .map((e) => e.id),
    ).toEqual([waiting, last]);
  });

  it("reports a folder that cannot be created, and keeps the entries", async () => {
    const agentDir = tempDir();
    const blocker = join(agentDir, "not-a-folder");
    writeFileSync(blocker, "");
    const { store, reports } = storeOn(nodeAppendIo);
    await store.newSession({ cwd: "/p", sessionDir: join(blocker, "sessions") });
    store.appendMessage(user("q1"));
    store.appendMessage(assistant("a1"));
    expect(reports).toHaveLength(1);
    expect(reports[0]!.error).toMatch(/cannot save the session to .*: ENOTDIR/);
    expect(store.buildContext().messages).toHaveLength(2);
  });

  it("is told on the kernel bus when the store runs as a plugin", async () => {
    const agentDir = tempDir();
    writeFileSync(join(agentDir, "sessions"), "a file where the sessions folder should be");
    const b = await bootStore(agentDir);
    booted.push(b);
    const heard: SessionSaveProblem[] = [];
    b.kernel.on(SESSION_SAVE_ERROR_EVENT, (problem: SessionSaveProblem) => heard.push(problem));
    await b.store.newSession({ cwd: "/p" });
    b.store.appendMessage(user("q1"));
    expect(() => b.store.appendMessage(assistant("a1"))).not.toThrow();
    expect(heard).toEqual([
      {
        reason: "write",
        path: expect.stringContaining(join(agentDir, "sessions")),
        error: expect.stringContaining("ENOTDIR"),
      },
    ]);
  });
});

describe("a session file that vanishes or is replaced mid-run", () => {
  it("writes a deleted file again with the whole session, and says so once", async () => {
    const { store, reports } = storeOn(nodeAppendIo);
    const { path } = await store.newSession({ cwd: "/p" });
    const ids = [store.appendMessage(user("q1")), store.appendMessage(assistant("a1"))];
    rmSync(path!);
    ids.push(store.appendMessage(user("q2")));
    ids.push(store.appendMessage(assistant("a2")));
    expect(reports).toEqual([
      {
        reason: "deleted",
        path,
        error: `session file ${path} was deleted while in use; it is written again with the whole session so far`,
      },
    ]);
    expect(formatProblems(path!)).toEqual([]);
    expect(
      readJsonLines(path!)
        .slice(1)
        .map((e) => e.id),
    ).toEqual(ids);
  });

  it("appends to the file now at the path when another program replaced it (an atomic rewrite)", async () => {
    const { store, reports } = storeOn(nodeAppendIo);
    const { path } = await store.newSession({ cwd: "/p" });
    store.appendMessage(user("q1"));
    store.appendMessage(assistant("a1"));
    const copy = `${path}.copy`;
    writeFileSync(copy, readFileSync(path!));
    renameSync(copy, path!);
    const id = store.appendMessage(user("q2"));
    expect(readJsonLines(path!).at(-1)!.id).toBe(id);
    expect(formatProblems(path!)).toEqual([]);
    expect(reports).toEqual([]);
  });
});
