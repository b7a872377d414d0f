/**
 * An in-memory session (pi's --no-session) behaves like any other, branch and fork included, and writes
 * nothing: the agent folder stays empty.
 */
import { existsSync, readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, bootStore, brief, tempDir, toolResult, user, type BootedStore } from "./harness.js";

let booted: BootedStore | undefined;
afterEach(async () => {
  await booted?.kernel.shutdown();
  booted = undefined;
});

describe("in-memory sessions", () => {
  it("support every operation and write nothing", async () => {
    const agentDir = tempDir();
    booted = await bootStore(agentDir);
    const store = booted.store;
    const info = await store.newSession({ cwd: "/p", inMemory: true });
    expect(info).toEqual({ id: expect.any(String), path: undefined, cwd: "/p" });

    store.appendModelChange("openai", "gpt-4o");
    store.appendThinkingLevelChange("minimal");
    const q = store.appendMessage(user("q"));
    const a = store.appendMessage(assistant("a", "openai", "gpt-4o"));
    store.appendMessage(toolResult("c", "r"));
    store.appendCompaction("so far", q, 100);
    store.appendBranchSummary(a, "left");
    store.appendCustom("ext", { x: 1 });
    store.appendCustomMessage("ext", "note", false);
    store.appendLabel(q, "here");
    store.appendSessionInfo("scratch");
    store.branch(a);
    expect(brief(store.buildContext().messages)).toEqual(["user: q", "assistant: a"]);
    expect(store.current()?.name).toBe("scratch");
    await store.fork(q);
    expect(store.entries().map((e) => e.type)).toEqual(["model_change", "thinking_level_change", "message", "label"]);

    const resumed = await store.continueRecent({ cwd: "/p", inMemory: true });
    expect(resumed.path).toBeUndefined();
    expect(await store.list({})).toEqual([]);
    expect(readdirSync(agentDir)).toEqual([]);
    expect(existsSync(info.path ?? "")).toBe(false);
  });
});
