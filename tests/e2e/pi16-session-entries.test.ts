/**
 * A session file written by pi 1.6.0 itself (two turns, one with a tool call, against a local
 * MockLlmServer), to which `context_edit` and `usage` entries are then appended by hand in pi 1.6.0's
 * documented format (pi 1.6.0 writes edits only from extensions and its failed-attempt recovery, and usage
 * entries only when warming a provider's cache, none of which a command line can drive). Both programs
 * then answer one more prompt on a copy of that file: the conversation each sends the server must be the
 * same, and `get_session_stats` must report the same tokens and cost (the usage entries included).
 * pi 1.6.0's own `system` messages (its persisted prompt and tools) are in the file as it wrote them: each
 * program sends exactly one system prompt, none of them as a conversation message.
 * Skipped with the install command when pi 1.6.0 is missing.
 */
import { spawn } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PI16_CLI, PI16_NODE, pi16Missing } from "../compat/pi16.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, completionsToolCall, sessionLines, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

const installed = pi16Missing === undefined;
if (!installed) console.log(`[skip] pi 1.6.0 session entries: ${pi16Missing}`);
const built = existsSync(PI_BIN);

type Which = "pi16" | "host";
type Rec = Record<string, any>;

let server: MockLlmServer;
let user: AgentHome;
beforeAll(async () => {
  server = await new MockLlmServer().start();
  user = agentHome();
  user.useMockServer(`${server.url}/v1`);
});
afterAll(async () => {
  await server.close();
});

/** Runs one program with `args` in the project, `input` on stdin; resolves with stdout once it exits. */
function run(
  which: Which,
  args: string[],
  input = "",
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [node, cli] = which === "pi16" ? [PI16_NODE, PI16_CLI] : [process.execPath, PI_BIN];
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, ...args], {
      cwd: user.project,
      env: { ...process.env, ...user.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** One prompt in JSON mode on the session file (`requests` model calls); resolves with the last request body. */
async function prompt(which: Which, file: string, text: string, requests = 1): Promise<Rec> {
  const before = server.requests.length;
  const result = await run(which, ["--mode", "json", "--session", file, "--model", "mock/mock-1", text]);
  expect(result.code, `${which}: ${result.stderr}`).toBe(0);
  expect(server.requests.length).toBe(before + requests);
  return server.requests.at(-1)!.body;
}

/** `get_session_stats` over RPC on the session file. */
async function stats(which: Which, file: string): Promise<Rec> {
  const result = await run(
    which,
    ["--mode", "rpc", "--session", file, "--model", "mock/mock-1"],
    `${JSON.stringify({ id: "s", type: "get_session_stats" })}\n`,
  );
  const response = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .find((r) => r.id === "s");
  expect(response?.success, `${which}: ${result.stdout}${result.stderr}`).toBe(true);
  return response.data;
}

/** The conversation of a request: everything but the system prompt (the two programs word theirs differently). */
const conversation = (body: Rec): Rec[] =>
  body.messages.filter((m: Rec) => m.role !== "system" && m.role !== "developer");

const usage = (cacheRead: number, cost: number) => ({
  input: 0,
  output: 0,
  cacheRead,
  cacheWrite: 0,
  totalTokens: cacheRead,
  cost: { input: 0, output: 0, cacheRead: cost, cacheWrite: 0, total: cost },
});

describe.skipIf(!installed || !built)("a pi 1.6.0 session with context_edit and usage entries", () => {
  it("pi-host sends the same conversation as pi 1.6.0 and reports the same stats", async () => {
    writeFileSync(join(user.project, "notes.txt"), "tangerine\n");
    const file = join(user.home, "written-by-pi16.jsonl");
    server.enqueue(
      { sse: completionsText("Hello there.") },
      { sse: completionsToolCall("call_1", "read", { path: "notes.txt" }) },
      { sse: completionsText("It says tangerine.") },
    );
    await prompt("pi16", file, "say hello");
    await prompt("pi16", file, "read notes.txt", 2);

    const entries = sessionLines(file).slice(1);
    const byRole = (role: string) => entries.filter((e) => e.type === "message" && e.message.role === role);
    // pi 1.6.0 persists its prompt and tool loadout as system messages; the file under test has them.
    expect(byRole("system").length).toBeGreaterThan(0);
    const [firstUser, secondUser] = byRole("user");
    const [firstAnswer] = byRole("assistant");
    const [readResult] = byRole("toolResult");
    let parent: string = entries.at(-1).id;
    let n = 0;
    const append = (entry: Rec): void => {
      const id = `e0f0${String(++n).padStart(4, "0")}`;
      appendFileSync(
        file,
        `${JSON.stringify({ ...entry, id, parentId: parent, timestamp: new Date().toISOString() })}\n`,
      );
      parent = id;
    };
    append({ type: "usage", kind: "cache_warm", provider: "mock", model: "mock-1", usage: usage(5000, 0.5) });
    append({ type: "context_edit", targetId: firstUser.id, replacement: null });
    append({ type: "context_edit", targetId: firstAnswer.id, replacement: null });
    append({ type: "context_edit", targetId: readResult.id, replacement: { content: "(output elided)" } });
    append({ type: "context_edit", targetId: secondUser.id, replacement: { content: "first version" } });
    append({ type: "context_edit", targetId: secondUser.id, replacement: { content: "read notes.txt, please" } });
    append({ type: "usage", kind: "something_new", provider: "mock", model: "mock-1", usage: usage(250, 0.125) });

    const copies = { pi16: join(user.home, "pi16.jsonl"), host: join(user.home, "host.jsonl") };
    copyFileSync(file, copies.pi16);
    copyFileSync(file, copies.host);
    server.enqueue({ sse: completionsText("Done.") }, { sse: completionsText("Done.") });
    const pi16Body = await prompt("pi16", copies.pi16, "and now?");
    const hostBody = await prompt("host", copies.host, "and now?");
    const [pi16Sent, hostSent] = [conversation(pi16Body), conversation(hostBody)];
    // The stored system messages become the one system prompt, never extra messages of the conversation.
    const systemCount = (body: Rec) =>
      body.messages.filter((m: Rec) => m.role === "system" || m.role === "developer").length;
    expect([systemCount(pi16Body), systemCount(hostBody)]).toEqual([1, 1]);
    // The first prompt and answer are left out, the tool output and second prompt replaced (latest edit wins).
    expect(pi16Sent.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(pi16Sent[0].content).toBe("read notes.txt, please");
    expect(pi16Sent[2].content).toBe("(output elided)");
    // The new prompt's shape is a known difference outside the session file (pi 1.6.0 sends a typed
    // prompt as text blocks, pi-host as a string; see pi16-events.test.ts): compared by its text.
    expect(hostSent.slice(0, -1)).toEqual(pi16Sent.slice(0, -1));
    expect(pi16Sent.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "and now?" }] });
    expect(hostSent.at(-1)).toEqual({ role: "user", content: "and now?" });

    const pi16Stats = await stats("pi16", copies.pi16);
    const hostStats = await stats("host", copies.host);
    expect(hostStats.tokens).toEqual(pi16Stats.tokens);
    expect(hostStats.cost).toBeCloseTo(pi16Stats.cost, 12);
    expect(pi16Stats.tokens.cacheRead).toBe(5250);
  }, 60_000);
});
