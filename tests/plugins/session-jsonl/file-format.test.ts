/**
 * Files we write are files pi reads: pi's folder and file naming, the header written lazily exactly when
 * pi writes it (with the first assistant message), and content a plain line-by-line JSON reader accepts
 * the way pi's parser does (header first, unique 8-hex ids, parent links to earlier entries).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultSessionDir, fileTimestamp } from "../../../kit/session/session-location.js";
import {
  assistant,
  bootStore,
  formatProblems,
  readJsonLines,
  tempDir,
  toolResult,
  user,
  type BootedStore,
} from "./harness.js";

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

async function boot(agentDir: string): Promise<BootedStore> {
  const b = await bootStore(agentDir);
  booted.push(b);
  return b;
}

describe("session file format", () => {
  it("names the folder and file as pi does", () => {
    expect(defaultSessionDir("/a", "/home/alice/my project")).toBe("/a/sessions/--home-alice-my project--");
    expect(defaultSessionDir("/a", "C:\\work\\app")).toBe("/a/sessions/--C--work-app--");
    expect(fileTimestamp("2025-01-10T09:00:00.123Z")).toBe("2025-01-10T09-00-00-123Z");
  });

  it("puts a new session at <agentDir>/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl", async () => {
    const agentDir = tempDir();
    const { store } = await boot(agentDir);
    const info = await store.newSession({ cwd: "/home/alice/project" });
    store.appendMessage(user("q"));
    store.appendMessage(assistant("a"));
    const header = readJsonLines(info.path!)[0];
    expect(info.path).toBe(
      join(agentDir, "sessions", "--home-alice-project--", `${fileTimestamp(header.timestamp)}_${header.id}.jsonl`),
    );
    expect(info.id).toBe(header.id);
  });

  it("a chosen id (pi's --session-id) names the header and the file; an id outside pi's rule is refused", async () => {
    const agentDir = tempDir();
    const { store } = await boot(agentDir);
    const info = await store.newSession({ cwd: "/home/alice/project", id: "release-2.1_a" });
    store.appendMessage(user("q"));
    store.appendMessage(assistant("a"));
    const header = readJsonLines(info.path!)[0];
    expect(header).toMatchObject({ type: "session", id: "release-2.1_a" });
    expect(info).toMatchObject({ id: "release-2.1_a" });
    expect(info.path!.endsWith(`${fileTimestamp(header.timestamp)}_release-2.1_a.jsonl`)).toBe(true);
    for (const bad of ["../x", "-a", "a.", "", "a b"]) {
      await expect(store.newSession({ cwd: "/p", id: bad })).rejects.toThrow(
        `newSession: "${bad}" is not a session id (letters, digits, . _ -)`,
      );
    }
    expect(store.current()).toMatchObject({ id: "release-2.1_a" });
  });

  it("uses PI_CODING_AGENT_DIR when no agentDir is configured", async () => {
    const agentDir = tempDir();
    const saved = process.env.PI_CODING_AGENT_DIR;
    process.env.PI_CODING_AGENT_DIR = agentDir;
    try {
      const kernel = (await import("../../../kernel/index.js")).Kernel;
      const plugin = (await import("../../../plugins/session/session-jsonl/index.js")).default;
      const { SessionStoreContract } = await import("../../../contracts/session.js");
      const k = new kernel();
      await k.boot([{ id: "session-jsonl", source: { kind: "inline", label: "s", definition: plugin } }]);
      const info = await k.use(SessionStoreContract).call("newSession", { cwd: "/x/y" });
      expect(info.path!.startsWith(`${join(agentDir, "sessions", "--x-y--")}/`)).toBe(true);
      await k.shutdown();
    } finally {
      if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = saved;
    }
  });

  it("writes nothing until the first assistant message, then the header and every entry at once (as pi)", async () => {
    const agentDir = tempDir();
    const { store } = await boot(agentDir);
    const info = await store.newSession({ cwd: "/p" });
    store.appendModelChange("anthropic", "claude-sonnet-4-5");
    store.appendMessage(user("first question"));
    expect(existsSync(info.path!)).toBe(false);
    expect(existsSync(join(agentDir, "sessions"))).toBe(false);

    store.appendMessage(assistant("first answer"));
    const lines = readJsonLines(info.path!);
    expect(lines.map((l) => l.type)).toEqual(["session", "model_change", "message", "message"]);
    store.appendMessage(user("second"));
    expect(readJsonLines(info.path!)).toHaveLength(5);
  });

  it("gives a plain line-by-line reader what pi's parser expects, even for a branched session", async () => {
    const { store } = await boot(tempDir());
    const info = await store.newSession({ cwd: "/p", parentSession: "/elsewhere/parent.jsonl" });
    const q1 = store.appendMessage(user("q1"));
    store.appendMessage(assistant("a1"));
    store.appendMessage(toolResult("c1", "out"));
    store.branch(q1);
    store.appendMessage(assistant("a1 again"));
    store.appendLabel(q1, "first");
    store.branch(null);
    store.appendMessage(user("a new root"));
    store.appendMessage(assistant("a new answer"));

    expect(formatProblems(info.path!)).toEqual([]);
    const text = readFileSync(info.path!, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(
      text
        .split("\n")
        .slice(0, -1)
        .every((line) => line.length > 0),
    ).toBe(true);
    const header = readJsonLines(info.path!)[0];
    expect(header).toEqual({
      type: "session",
      version: 3,
      id: info.id,
      timestamp: header.timestamp,
      cwd: "/p",
      parentSession: "/elsewhere/parent.jsonl",
    });
    expect(readdirSync(join(info.path!, ".."))).toHaveLength(1);
  });
});
