/**
 * What /resume does to sessions that are not open (session store 1.3): a rename appends one
 * `session_info` entry after the session's leaf (for a file: the old bytes stay as they were, one line is
 * added), a delete removes the session and never the open one, and the listing reports each session's
 * parent (a fork's `parentSession`) for pi's threaded order. Run against session-sqlite as well.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  assistant,
  bootStore,
  filePerSession,
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

/** Three sessions of one folder: a parent, its fork (named by `parentSession`), and the open one. */
async function threeSessions() {
  booted = await bootStore(tempDir());
  const store = booted.store;
  const cwd = "/home/alice/project";
  const parent = await store.newSession({ cwd });
  store.appendMessage(user("first question"));
  store.appendMessage(assistant("first answer"));
  const child = await store.newSession({ cwd, parentSession: parent.path });
  store.appendMessage(user("forked question"));
  store.appendMessage(assistant("forked answer"));
  const open = await store.newSession({ cwd });
  store.appendMessage(user("open question"));
  store.appendMessage(assistant("open answer"));
  return { store, cwd, parent: parent.path!, child: child.path!, open: open.path! };
}

describe("sessions that are not open", () => {
  it("lists each session's parent session", async () => {
    const { store, cwd, parent, child, open } = await threeSessions();
    const listed = await store.list({ cwd });
    expect(listed.find((s) => s.path === child)?.parentSession).toBe(parent);
    expect(listed.find((s) => s.path === parent)?.parentSession).toBeUndefined();
    expect(listed.find((s) => s.path === open)?.parentSession).toBeUndefined();
  });

  it("renames a listed session by appending a session_info entry after its leaf", async () => {
    const { store, cwd, parent, open } = await threeSessions();
    const before = storedText(parent);
    const openBefore = storedText(open);
    await store.renameSession(parent, "  Alpha work ");
    const after = storedText(parent);
    expect(after.startsWith(before)).toBe(true);
    const added = after.slice(before.length).trim().split("\n");
    expect(added).toHaveLength(1);
    const lines = readJsonLines(parent);
    const info = lines.at(-1)!;
    expect(info.type).toBe("session_info");
    expect(info.name).toBe("Alpha work");
    expect(info.parentId).toBe(lines.at(-2)!.id);
    expect(Object.keys(info)).toEqual(["type", "id", "parentId", "timestamp", "name"]);
    // The open session is untouched and stays open.
    expect(storedText(open)).toBe(openBefore);
    expect(store.current()?.path).toBe(open);
    expect((await store.list({ cwd })).find((s) => s.path === parent)?.name).toBe("Alpha work");
    // Renaming again: the latest name wins.
    await store.renameSession(parent, "Beta");
    expect((await store.list({ cwd })).find((s) => s.path === parent)?.name).toBe("Beta");
    await expect(store.renameSession(parent, "   ")).rejects.toThrow(/non-empty name/);
  });

  it("renames the open session through its own append", async () => {
    const { store, cwd, open } = await threeSessions();
    await store.renameSession(open, "Current work");
    expect(store.current()?.name).toBe("Current work");
    expect(store.entries().at(-1)).toMatchObject({ type: "session_info", name: "Current work" });
    expect((await store.list({ cwd })).find((s) => s.path === open)?.name).toBe("Current work");
  });

  it("deletes a session that is not open, and refuses the open one", async () => {
    const { store, cwd, parent, child, open } = await threeSessions();
    const openBefore = storedText(open);
    await expect(store.deleteSession(open)).rejects.toThrow("Cannot delete the currently active session");
    expect(storedText(open)).toBe(openBefore);
    const result = await store.deleteSession(child);
    expect(["trash", "deleted"]).toContain(result.method);
    const listed = (await store.list({ cwd })).map((s) => s.path);
    expect(listed).not.toContain(child);
    expect(listed).toContain(parent);
    expect(listed).toContain(open);
    // The open session goes on as before.
    store.appendMessage(user("after the delete"));
    expect(storedText(open).startsWith(openBefore)).toBe(true);
    await expect(store.deleteSession(child)).rejects.toThrow(/no session/);
  });

  it.runIf(filePerSession())("refuses a file that is not a session file, untouched", async () => {
    const { store } = await threeSessions();
    const { writeFileSync, readFileSync } = await import("node:fs");
    const foreign = `${tempDir()}/notes.jsonl`;
    writeFileSync(foreign, '{"hello":1}\n');
    await expect(store.renameSession(foreign, "x")).rejects.toThrow(/not a session file/);
    expect(readFileSync(foreign, "utf8")).toBe('{"hello":1}\n');
  });
});
