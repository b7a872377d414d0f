/**
 * The built CLI on a distribution that swaps session-jsonl for session-sqlite, as a user runs it: a
 * `pi -p` run is stored in the folder's database, `-c` carries on the newest session, `--session <id
 * prefix>` opens one by id, `--no-session` stores nothing, and every request carries the turns before it.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { agentHome, completionsText } from "../../e2e/agent-home.js";
import { PI_BIN } from "../../e2e/run-pi.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";

let server: MockLlmServer;
beforeAll(async () => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  server = await new MockLlmServer().start();
});
afterAll(() => server.close());

/** The texts of the user and assistant messages a recorded request sent, in order. */
function sentTexts(index: number): string[] {
  const body = server.requests[index]!.body as { messages: Array<{ role: string; content: unknown }> };
  return body.messages
    .filter((m) => m.role === "user" || m.role === "assistant")
    .map((m) =>
      typeof m.content === "string" ? m.content : (m.content as Array<{ text?: string }>).map((b) => b.text).join(""),
    );
}

it("runs, continues and reopens sessions stored in SQLite", async () => {
  const user = agentHome();
  user.useMockServer(`${server.url}/v1`);
  const overlay = join(user.home, "sqlite.json");
  writeFileSync(
    overlay,
    JSON.stringify({
      plugins: [
        { id: "session-jsonl", enabled: false },
        { id: "session-sqlite", enabled: true },
      ],
    }),
  );
  const pi = (...args: string[]) => user.pi(["--distribution", overlay, "--model", "mock/mock-1", ...args]);
  server.enqueue(
    { sse: completionsText("one") },
    { sse: completionsText("two") },
    { sse: completionsText("three") },
    { sse: completionsText("nothing kept") },
  );

  const first = await pi("-p", "first");
  expect(first.stderr).toBe("");
  expect(first.stdout.trim()).toBe("one");
  expect(first.code).toBe(0);
  // The session went to the folder's database, not to a JSONL file.
  const folders = readdirSync(join(user.agent, "sessions"));
  expect(folders).toHaveLength(1);
  const files = readdirSync(join(user.agent, "sessions", folders[0]!));
  expect(files).toContain("sessions.sqlite");
  expect(files.filter((f) => f.endsWith(".jsonl"))).toEqual([]);

  const second = await pi("-c", "-p", "second");
  expect(second.code).toBe(0);
  expect(second.stdout.trim()).toBe("two");
  expect(sentTexts(1)).toEqual(["first", "one", "second"]);

  const listed = await user.pi(["--distribution", overlay, "-r"]);
  expect(listed.code).toBe(0);
  const id = listed.stdout.trim().split("\n").at(-1)!.split(/\s+/)[0]!;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);

  const third = await pi("--session", id.slice(0, 8), "-p", "third");
  expect(third.code).toBe(0);
  expect(sentTexts(2)).toEqual(["first", "one", "second", "two", "third"]);

  const loose = await pi("--no-session", "-p", "loose");
  expect(loose.code).toBe(0);
  expect(sentTexts(3)).toEqual(["loose"]);
  const after = await user.pi(["--distribution", overlay, "-r"]);
  expect(after.stdout.trim().split("\n")).toHaveLength(listed.stdout.trim().split("\n").length);

  // An unknown id is refused as the JSONL store refuses it: one line, exit 1, nothing sent.
  const unknown = await pi("--session", "ffffffff", "-p", "x");
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toBe(
    'pi: no session id starts with "ffffffff"; list this folder\'s sessions with "pi -r" or pass a session file\n',
  );
  expect(server.requests).toHaveLength(4);
}, 60_000);
