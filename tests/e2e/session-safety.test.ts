/**
 * Session data safety through the built CLI: a session that cannot be written never costs the user the
 * answer (print mode prints it, then exits 1 with one line saying the session is not saved) and every
 * protocol hears about it (JSON and RPC emit a `session_save_error` line on stdout); `--session` refuses
 * a file that is not a session without touching it, and starts a new session at a path with no file.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { agentHome, messageRoles, type AgentHome } from "./agent-home.js";

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
});

/** A --session-dir that cannot be created: its parent is a regular file (fails even for root). */
function unwritableSessionDir(): string {
  const blocker = join(user.home, "blocker");
  writeFileSync(blocker, "a file, not a folder");
  return join(blocker, "sessions");
}

/** The stdout lines that are JSON objects. */
function jsonLines(stdout: string): Array<Record<string, any>> {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, any>);
}

describe("a session that cannot be saved", () => {
  it("print mode still prints the answer, then says in one line that the session is not saved, and exits 1", async () => {
    user.scriptFaux([{ content: "the answer" }]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "--session-dir", unwritableSessionDir(), "hello"]);
    expect(run.stdout).toBe("the answer\n");
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^cannot save the session to .*ENOTDIR.*; the answer was printed but the session is not saved in full \(exit code 1\)$/,
    );
  });

  it("JSON mode emits a session_save_error line on stdout", async () => {
    user.scriptFaux([{ content: "the answer" }]);
    const dir = unwritableSessionDir();
    const run = await user.pi(["--mode", "json", "--model", "faux/faux-1", "--session-dir", dir, "hello"]);
    const events = jsonLines(run.stdout);
    const problem = events.find((e) => e.type === "session_save_error");
    expect(problem).toEqual({
      type: "session_save_error",
      reason: "write",
      path: expect.stringContaining(dir),
      error: expect.stringContaining("ENOTDIR"),
    });
    expect(events.some((e) => e.type === "message_end" && e.message.role === "assistant")).toBe(true);
  });

  it("RPC mode emits a session_save_error line to the client", async () => {
    user.scriptFaux([{ content: "the answer" }]);
    const dir = unwritableSessionDir();
    const run = await user.pi(["--mode", "rpc", "--model", "faux/faux-1", "--session-dir", dir], {
      input: `${JSON.stringify({ type: "prompt", message: "hello" })}\n`,
    });
    const events = jsonLines(run.stdout);
    expect(events.filter((e) => e.type === "session_save_error")).toEqual([
      {
        type: "session_save_error",
        reason: "write",
        path: expect.stringContaining(dir),
        error: expect.stringContaining("ENOTDIR"),
      },
    ]);
  });
});

describe("--session <file>", () => {
  it("refuses a JSONL file that is not a session, in one line with exit 2, and leaves it untouched", async () => {
    user.scriptFaux([{ content: "the answer" }]);
    const data = '{"a":1}\n{"b":2}\n';
    writeFileSync(join(user.project, "data.jsonl"), data);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "--session", "data.jsonl", "hello"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/--session data\.jsonl: not a pi session file/),
    ]);
    expect(readFileSync(join(user.project, "data.jsonl"), "utf8")).toBe(data);
    expect(readdirSync(user.project)).toEqual(["data.jsonl"]);
  });

  it("creates a new session at a path with no file (0600, in a 0700 folder)", async () => {
    user.scriptFaux([{ content: "the answer" }]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "--session", "chats/new.jsonl", "hello"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const file = join(user.project, "chats", "new.jsonl");
    expect(messageRoles(file)).toEqual(["user", "assistant"]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(user.project, "chats")).mode & 0o777).toBe(0o700);
  });
});

describe("a hand-edited session file", () => {
  it("opens with one stderr line per broken entry and no TypeError; the run goes on and the file keeps the user's lines", async () => {
    user.scriptFaux([{ content: "still here" }]);
    const header = {
      type: "session",
      version: 3,
      id: "01944f2a-0000-7000-8000-000000000000",
      timestamp: "2025-03-01T10:00:00.000Z",
      cwd: user.project,
    };
    const at = "2025-03-01T10:00:01.000Z";
    const lines = [
      header,
      {
        type: "message",
        id: "0000000a",
        parentId: null,
        timestamp: at,
        message: { role: "user", content: "q1", timestamp: 1 },
      },
      {
        type: "message",
        id: "0000000b",
        parentId: "0000000a",
        timestamp: at,
        message: {
          role: "assistant",
          content: [{ type: "text", text: "a1" }],
          provider: "faux",
          model: "faux-1",
          stopReason: "stop",
          timestamp: 2,
        },
      },
      { type: "message", id: "0000000c", parentId: "0000000b", timestamp: at, message: null },
      {
        type: "message",
        id: "0000000d",
        parentId: "0000000c",
        timestamp: at,
        message: { role: "user", content: { not: "an array" }, timestamp: 3 },
      },
      {
        type: "message",
        id: "0000000e",
        parentId: "0000000d",
        timestamp: at,
        message: { role: "user", content: "q2", timestamp: 4 },
      },
    ];
    const file = join(user.project, "edited.jsonl");
    const text = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    writeFileSync(file, text);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "--session", "edited.jsonl", "and now?"]);
    expect(run.stderr).not.toContain("TypeError");
    expect(run.stderr.trim().split("\n")).toEqual([
      `${file}: entry 0000000c has no message object; skipped`,
      `${file}: entry 0000000d has a user message whose content is neither text nor a list of blocks; skipped`,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("still here\n");
    expect(readFileSync(file, "utf8").startsWith(text)).toBe(true);
  });
});
