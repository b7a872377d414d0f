/**
 * Session files hold prompts and tool output: the store creates them 0600 and their folders 0700,
 * whatever the process umask allows, for a new session, a fork, a file started by `open`, and the side
 * file that keeps torn lines.
 */
import { appendFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistant, bootStore, tempDir, user, type BootedStore } from "./harness.js";

const booted: BootedStore[] = [];
let umask = 0;
beforeEach(() => {
  umask = process.umask(0); // The widest umask: only the store's own modes limit access.
});
afterEach(async () => {
  process.umask(umask);
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe("session file modes", () => {
  it("writes new sessions 0600 in folders created 0700", async () => {
    const agentDir = tempDir();
    const b = await bootStore(agentDir);
    booted.push(b);
    const { path } = await b.store.newSession({ cwd: "/p" });
    b.store.appendMessage(user("q"));
    b.store.appendMessage(assistant("a"));
    expect(modeOf(path!)).toBe(0o600);
    expect(modeOf(dirname(path!))).toBe(0o700);
    expect(modeOf(join(agentDir, "sessions"))).toBe(0o700);

    const fork = await b.store.fork();
    expect(modeOf(fork.path!)).toBe(0o600);
  });

  it("writes a session started by open, and the side file of torn lines, 0600", async () => {
    const dir = tempDir();
    const b = await bootStore(dir);
    booted.push(b);
    const path = join(dir, "chats", "new.jsonl");
    await b.store.open(path);
    b.store.appendMessage(user("q"));
    b.store.appendMessage(assistant("a"));
    expect(modeOf(path)).toBe(0o600);
    expect(modeOf(dirname(path))).toBe(0o700);

    appendFileSync(path, '{"type":"message","id":"torn');
    const report = await b.store.open(path);
    expect(modeOf(report.setAside!.file)).toBe(0o600);
  });
});
