/**
 * Listing sessions for a resume picker, as pi lists them: this cwd's folder or every project's, newest
 * (last activity) first, with the session name, the first user message and the message count;
 * continueRecent opens the most recently written session of the cwd, or starts one.
 */
import { mkdirSync, utimesSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, bootStore, filePerSession, tempDir, toolResult, user, type BootedStore } from "./harness.js";

let booted: BootedStore | undefined;
afterEach(async () => {
  await booted?.kernel.shutdown();
  booted = undefined;
});

describe("listing sessions", () => {
  it("lists this cwd's sessions and all sessions, newest first, with names, first messages and counts", async () => {
    const agentDir = tempDir();
    booted = await bootStore(agentDir);
    const store = booted.store;

    const oldest = await store.newSession({ cwd: "/home/alice/project" });
    store.appendMessage(user("Fix the login bug"));
    store.appendMessage(assistant("Done"));
    store.appendSessionInfo("Login bug");

    const middle = await store.newSession({ cwd: "/home/alice/project" });
    store.appendMessage(user("Explain the build"));
    store.appendMessage(assistant("It uses tsup"));
    store.appendMessage(toolResult("c", "ok"));

    const other = await store.newSession({ cwd: "/home/alice/other" });
    store.appendCustomMessage("ext", "not a user message", true);
    store.appendMessage({
      ...user(""),
      content: [
        { type: "text", text: "Write" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "text", text: "docs" },
      ],
    });
    store.appendMessage(assistant("Written"));

    // Not on disk yet (no assistant message): not listed, as in pi.
    await store.newSession({ cwd: "/home/alice/project" });
    store.appendMessage(user("unanswered"));

    // New activity in the oldest session makes it the newest.
    await store.open(oldest.path!);
    store.appendMessage(user("One more thing"));

    const here = await store.list({ cwd: "/home/alice/project" });
    expect(here.map((s) => s.id)).toEqual([oldest.id, middle.id]);
    expect(here[0]).toEqual({
      id: oldest.id,
      path: oldest.path,
      cwd: "/home/alice/project",
      name: "Login bug",
      firstMessage: "Fix the login bug",
      messageCount: 3,
      created: expect.any(String),
      modified: expect.any(String),
    });
    expect(here[1]).toMatchObject({ firstMessage: "Explain the build", messageCount: 3 });
    expect(here[1].name).toBeUndefined();
    expect(Date.parse(here[0].modified)).toBeGreaterThan(Date.parse(here[1].modified));

    const all = await store.list({});
    expect(all.map((s) => s.id)).toEqual([oldest.id, other.id, middle.id]);
    expect(all[1]).toMatchObject({ cwd: "/home/alice/other", firstMessage: "Write docs", messageCount: 2 });
  });

  it("skips files that are not sessions and reads past torn lines without touching them", async () => {
    const agentDir = tempDir();
    booted = await bootStore(agentDir);
    const store = booted.store;
    const info = await store.newSession({ cwd: "/p" });
    store.appendMessage(user("hello"));
    store.appendMessage(assistant("hi"));
    appendFileSync(info.path!, '{"type":"mess');
    const dir = join(agentDir, "sessions", "--p--");
    writeFileSync(join(dir, "notes.jsonl"), '{"type":"note"}\n');
    writeFileSync(join(dir, "readme.txt"), "not a session");

    const listed = await store.list({ cwd: "/p" });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: info.id, firstMessage: "hello", messageCount: 2 });
    expect(await store.list({ cwd: "/nowhere" })).toEqual([]);
  });

  it("lists a custom session folder, for one cwd or for all of it", async () => {
    const agentDir = tempDir();
    const custom = join(tempDir(), "my-sessions");
    booted = await bootStore(agentDir);
    const store = booted.store;
    const a = await store.newSession({ cwd: "/a", sessionDir: custom });
    store.appendMessage(user("in a"));
    store.appendMessage(assistant("ok"));
    expect(a.path!.startsWith(custom)).toBe(true);
    expect((await store.list({ cwd: "/a", sessionDir: custom })).map((s) => s.id)).toEqual([a.id]);
    expect((await store.list({ sessionDir: custom })).map((s) => s.id)).toEqual([a.id]);
    expect(await store.list({})).toEqual([]);
  });

  it("continueRecent opens the most recently written session of the cwd, or starts a new one", async () => {
    const agentDir = tempDir();
    booted = await bootStore(agentDir);
    const store = booted.store;
    const first = await store.continueRecent({ cwd: "/p" });
    store.appendMessage(user("first"));
    store.appendMessage(assistant("one"));
    const second = await store.newSession({ cwd: "/p" });
    store.appendMessage(user("second"));
    store.appendMessage(assistant("two"));
    // The first session is written to last.
    await store.open(first.path!);
    store.appendMessage(user("first again"));
    store.appendMessage(assistant("three"));
    if (filePerSession()) utimesSync(second.path!, new Date(1_000_000), new Date(1_000_000));

    const resumed = await store.continueRecent({ cwd: "/p" });
    expect(resumed.id).toBe(first.id);
    expect(store.buildContext().messages).toHaveLength(4);

    mkdirSync(join(agentDir, "sessions", "--empty--"), { recursive: true });
    const fresh = await store.continueRecent({ cwd: "/empty" });
    expect(fresh.id).not.toBe(first.id);
    expect(store.entries()).toEqual([]);
  });
});
