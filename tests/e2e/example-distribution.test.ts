/**
 * The example custom distribution (examples/distributions/read-only/) run as docs/distributions.md
 * starts it: the built `pi --distribution .../plugins.json -p "..."`, against a local OpenAI-compatible
 * MockLlmServer that records what the agent sends. Only the read-only tools reach the model, and a call
 * to a tool outside the distribution changes nothing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, completionsToolCall, sessionLines, type AgentHome } from "./agent-home.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const READ_ONLY = join(ROOT, "examples", "distributions", "read-only", "plugins.json");
const ALT_LOOP = join(ROOT, "tests", "fixtures", "plugins", "alt-loop", "index.ts");

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
  writeFileSync(join(user.project, "notes.txt"), "the answer is 42\n");
});

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name).sort();
const toolMessages = (body: any): any[] => body.messages.filter((m: any) => m.role === "tool");

describe("examples/distributions/read-only (built CLI)", () => {
  it("acceptance: pi --distribution <read-only> -p runs end to end, offering only read, grep, find, ls and word_count", async () => {
    server.enqueue(
      { sse: completionsToolCall("call_read", "read", { path: "notes.txt" }) },
      { sse: completionsText("The notes say 42.") },
    );
    const run = await user.pi(["--distribution", READ_ONLY, "-p", "--model", "mock/mock-1", "What do the notes say?"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The notes say 42.\n");

    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(toolNames(request.body)).toEqual(["find", "grep", "ls", "read", "word_count"]);
      for (const absent of ["write", "edit", "bash"]) expect(toolNames(request.body)).not.toContain(absent);
    }
    expect(toolMessages(server.requests[1]!.body)).toMatchObject([
      { tool_call_id: "call_read", content: expect.stringContaining("the answer is 42") },
    ]);
    // The session store is in the distribution: the run is on disk.
    expect(user.sessionFiles()).toHaveLength(1);
  });

  it("its word_count comes from the example plugin folder, with the distribution's config", async () => {
    server.enqueue(
      { sse: completionsToolCall("call_count", "word_count", { path: "notes.txt" }) },
      { sse: completionsText("Four words.") },
    );
    const run = await user.pi([
      "--distribution",
      READ_ONLY,
      "-p",
      "--model",
      "mock/mock-1",
      "Count the words of notes.txt",
    ]);
    expect(run.code).toBe(0);
    expect(toolMessages(server.requests[1]!.body)).toMatchObject([
      { tool_call_id: "call_count", content: "notes.txt: 4 words, 1 line, 17 characters" },
    ]);

    const plugins = JSON.parse((await user.pi(["plugins", "--json", "--distribution", READ_ONLY])).stdout) as any[];
    expect(plugins.map((p) => p.id)).toEqual([
      "models",
      "auth",
      "provider-anthropic",
      "provider-openai",
      "provider-google",
      "llm",
      "settings",
      "resources",
      "session-jsonl",
      "agent-loop",
      "tool-read",
      "tool-grep",
      "tool-find",
      "tool-ls",
      "word-count",
      "agent-session",
      "mode-print",
    ]);
    expect(plugins.find((p) => p.id === "word-count")).toMatchObject({
      status: "active",
      source: join(ROOT, "examples", "plugins", "word-count", "index.ts"),
      config: { maxBytes: 200000 },
    });
  });

  it("a model that calls write anyway gets an error result, and nothing is written", async () => {
    server.enqueue(
      { sse: completionsToolCall("call_write", "write", { path: "pwned.txt", content: "x" }) },
      { sse: completionsText("I cannot write.") },
    );
    const run = await user.pi(["--distribution", READ_ONLY, "-p", "--model", "mock/mock-1", "Write a file"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("I cannot write.\n");
    const [result] = toolMessages(server.requests[1]!.body);
    expect(result).toMatchObject({
      tool_call_id: "call_write",
      content: expect.stringContaining(`Tool "write" not found. Available tools: read, grep, find, ls, word_count.`),
    });
    expect(existsSync(join(user.project, "pwned.txt"))).toBe(false);
  });

  it("is print-only: JSON mode is refused in one line naming the missing mode", async () => {
    const run = await user.pi(["--distribution", READ_ONLY, "--mode", "json", "--model", "mock/mock-1", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`pi: no plugin provides the "json" mode; enable one in plugins.json\n`);
    expect(server.requests).toHaveLength(0);
  });

  it("takes an alternative agent loop on top with --plugin agent-loop=<file>", async () => {
    server.enqueue({ sse: completionsToolCall("call_ls", "ls", {}) }, { sse: completionsText("One file.") });
    const run = await user.pi([
      "--distribution",
      READ_ONLY,
      "--plugin",
      `agent-loop=${ALT_LOOP}`,
      "-p",
      "--model",
      "mock/mock-1",
      "What is here?",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("One file.\n");
    expect(toolNames(server.requests[0]!.body)).toEqual(["find", "grep", "ls", "read", "word_count"]);
    const assistants = sessionLines(user.sessionFiles()[0]!).filter(
      (e) => e.type === "message" && e.message.role === "assistant",
    );
    // The fixture loop marks every answer it streams.
    expect(assistants.map((e) => e.message.responseId)).toEqual(["alt-loop", "alt-loop"]);
  });
});

describe("docs/distributions.md", () => {
  it("shows the example distribution as it is on disk", () => {
    const doc = readFileSync(join(ROOT, "docs", "distributions.md"), "utf8");
    expect(doc).toContain(`pi --distribution examples/distributions/read-only/plugins.json -p "`);
    expect(doc).toContain(`\`\`\`json\n${readFileSync(READ_ONLY, "utf8").trimEnd()}\n\`\`\``);
  });
});
