/**
 * The real provider path end to end: the built `pi` with a models.json custom provider (api
 * openai-completions) pointed at MockLlmServer on 127.0.0.1, which streams Chat Completions SSE in
 * OpenAI's wire format and records every request body.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import {
  agentHome,
  completionsText,
  completionsToolCall,
  messageRoles,
  sessionLines,
  type AgentHome,
} from "./agent-home.js";

let server: MockLlmServer;
let user: AgentHome;

beforeAll(async () => {
  server = await new MockLlmServer().start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  user = agentHome();
  user.useMockServer(`${server.url}/v1`);
});

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name).sort();

describe("pi against a local OpenAI-compatible server (models.json custom provider)", () => {
  it('pi -p "hello" streams the answer through the openai-completions provider and prints it', async () => {
    server.enqueue({ sse: completionsText("Hello from the mock server!") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hello"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello from the mock server!\n");
    expect(server.requests).toHaveLength(1);
    const { path, body } = server.requests[0]!;
    expect(path).toBe("/v1/chat/completions");
    expect(body).toMatchObject({ model: "mock-1", stream: true });
    expect(body.messages.at(-1)).toMatchObject({ role: "user", content: "hello" });
    // The default distribution offers pi's seven tools.
    expect(toolNames(body)).toEqual(["bash", "edit", "find", "grep", "ls", "read", "write"]);
  });

  it("--tools read offers only read; --no-tools offers none", async () => {
    server.enqueue({ sse: completionsText("ok") }, { sse: completionsText("ok") });
    expect((await user.pi(["-p", "--model", "mock/mock-1", "--tools", "read", "hi"])).code).toBe(0);
    expect(toolNames(server.requests[0]!.body)).toEqual(["read"]);
    expect((await user.pi(["-p", "--model", "mock/mock-1", "--no-tools", "hi"])).code).toBe(0);
    expect(toolNames(server.requests[1]!.body)).toEqual([]);
  });

  it("a tool round trip: the server calls read, the file's text goes back, the final answer prints", async () => {
    writeFileSync(join(user.project, "notes.txt"), "the secret word is tangerine\n");
    server.enqueue(
      { sse: completionsToolCall("call_Qm3kP9xL2vR8tN4wY7zB1cD5", "read", { path: "notes.txt" }) },
      { sse: completionsText("The secret word is tangerine.") },
    );
    const run = await user.pi(["-p", "--model", "mock/mock-1", "what is the secret word?"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The secret word is tangerine.\n");
    const second = server.requests[1]!.body;
    expect(second.messages.at(-2)).toMatchObject({
      role: "assistant",
      tool_calls: [{ id: "call_Qm3kP9xL2vR8tN4wY7zB1cD5", function: { name: "read" } }],
    });
    expect(second.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_Qm3kP9xL2vR8tN4wY7zB1cD5" });
    expect(JSON.stringify(second.messages.at(-1).content)).toContain("the secret word is tangerine");
    expect(messageRoles(user.sessionFiles()[0]!)).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });

  it("--system-prompt and --append-system-prompt shape the system message the server receives", async () => {
    server.enqueue({ sse: completionsText("Arr.") });
    const run = await user.pi([
      "-p",
      "--model",
      "mock/mock-1",
      "--system-prompt",
      "You are a pirate.",
      "--append-system-prompt",
      "Always say arr.",
      "hi",
    ]);
    expect(run.code).toBe(0);
    const system = server.requests[0]!.body.messages[0];
    expect(["system", "developer"]).toContain(system.role);
    expect(system.content).toContain("You are a pirate.");
    expect(system.content).toContain("Always say arr.");
  });

  it("--skill, --prompt-template and --no-context-files reach the resources plugin", async () => {
    mkdirSync(join(user.project, "skills", "release-notes"), { recursive: true });
    writeFileSync(
      join(user.project, "skills", "release-notes", "SKILL.md"),
      "---\nname: release-notes\ndescription: Writes release notes from the git log.\n---\nRun git log.\n",
    );
    writeFileSync(
      join(user.project, "review.md"),
      "---\ndescription: Review a file\n---\nReview $1 for bugs, then $2.\n",
    );
    writeFileSync(join(user.project, "AGENTS.md"), "Project rule: tabs, never spaces.\n");
    server.enqueue({ sse: completionsText("ok") }, { sse: completionsText("ok") });

    const withFlags = await user.pi([
      "-p",
      "--model",
      "mock/mock-1",
      "--skill",
      "skills/release-notes",
      "--prompt-template",
      "review.md",
      "/review src/app.ts summarize",
    ]);
    expect(withFlags.stderr).toBe("");
    expect(withFlags.code).toBe(0);
    const first = server.requests[0]!.body.messages;
    expect(first[0].content).toContain("<name>release-notes</name>");
    expect(first[0].content).toContain("Project rule: tabs, never spaces.");
    expect(first.at(-1)).toMatchObject({ role: "user", content: "Review src/app.ts for bugs, then summarize." });

    const noContext = await user.pi(["-p", "--model", "mock/mock-1", "--no-context-files", "hi"]);
    expect(noContext.code).toBe(0);
    const system = server.requests[1]!.body.messages[0].content;
    expect(system).not.toContain("Project rule: tabs, never spaces.");
    expect(system).not.toContain("release-notes");
  });

  it("a server error ends in one line on stderr and exit 1", async () => {
    server.enqueue({
      status: 401,
      json: {
        error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
      },
    });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hi"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("Incorrect API key provided");
    expect(server.requests).toHaveLength(1);
  });

  it("--mode json streams pi 1.6.0's deltas from the real provider, and --compat-events pi 0.73's whole partial messages", async () => {
    server.enqueue(
      { sse: completionsText("Hello from the mock server!") },
      { sse: completionsText("Hello from the mock server!") },
    );
    const run = await user.pi(["--mode", "json", "--model", "mock/mock-1", "hello"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ type: "session", version: 3, cwd: user.project });
    expect(events[0].id).toBe(sessionLines(user.sessionFiles()[0]!)[0].id);
    const deltas = events.filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta");
    expect(deltas.map((e) => e.assistantMessageEvent.delta).join("")).toBe("Hello from the mock server!");
    for (const e of deltas) {
      expect(e.assistantMessageEvent.partial).toBeUndefined();
      expect(e.message).toBeUndefined();
      expect(e.usage).toMatchObject({ input: expect.any(Number), output: expect.any(Number) });
    }
    const end = events.find((e) => e.type === "message_end" && e.message.role === "assistant");
    expect(end.message).toMatchObject({
      provider: "mock",
      model: "mock-1",
      stopReason: "stop",
      usage: { input: 120, output: 12 },
    });

    const compat = await user.pi(["--mode", "json", "--compat-events=0.73", "--model", "mock/mock-1", "hello"]);
    expect(compat.code).toBe(0);
    const compatDeltas = compat.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta");
    expect(compatDeltas.at(-1).message.content).toEqual([{ type: "text", text: "Hello from the mock server!" }]);
    expect(compatDeltas.at(-1).assistantMessageEvent.partial).toEqual(compatDeltas.at(-1).message);
  });
});
