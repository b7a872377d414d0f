/**
 * pi 1.6.0's flags end to end: the built `pi` against MockLlmServer (a models.json custom provider),
 * checking what each flag changes in the request the server receives.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, messageRoles, sessionLines, type AgentHome } from "./agent-home.js";

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

/** Runs `pi -p --model mock/mock-1 <flags> hi` and returns the tool names the server was offered. */
async function offeredTools(flags: string[]): Promise<string[]> {
  server.enqueue({ sse: completionsText("ok") });
  const run = await user.pi(["-p", "--model", "mock/mock-1", ...flags, "hi"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return toolNames(server.requests.at(-1)!.body);
}

describe("pi 1.6.0's tool flags", () => {
  it("--tools with a * pattern allows every tool it matches", async () => {
    expect(await offeredTools(["--tools", "read,*s*"])).toEqual(["bash", "ls", "read"]);
  });

  it("--tools with only +name/-name entries changes the default set instead of replacing it", async () => {
    expect(await offeredTools(["--tools", "-write,-edit"])).toEqual(["bash", "find", "grep", "ls", "read"]);
  });

  it("--tools +codemode adds codemode to the default set (the motivating case: it used to send no tools)", async () => {
    expect(await offeredTools(["--plugin", "codemode", "--tools", "+codemode"])).toEqual([
      "bash",
      "codemode",
      "edit",
      "find",
      "grep",
      "ls",
      "read",
      "write",
    ]);
  });

  it("-nbt/--no-builtin-tools turns the built-in tools off and keeps extension and plugin tools", async () => {
    const greet = join(import.meta.dirname, "../fixtures/pi-extensions/greet-tool.ts");
    expect(await offeredTools(["-nbt"])).toEqual([]);
    expect(await offeredTools(["--no-builtin-tools", "-e", greet, "--tools", "+codemode"])).toEqual([
      "codemode",
      "greet",
      "hello",
    ]);
    expect(await offeredTools(["-nbt", "--tools", "+read"])).toEqual(["read"]);
    expect(await offeredTools(["-nbt", "--tools", "read,grep"])).toEqual(["grep", "read"]);
  });

  it("-xt/--exclude-tools takes names and patterns out last", async () => {
    expect(await offeredTools(["-xt", "bash,*e*"])).toEqual(["find", "ls"]);
    expect(await offeredTools(["--tools", "read,bash,edit", "--exclude-tools", "bash"])).toEqual(["edit", "read"]);
  });

  it("mixing names with +name/-name is refused in one line, exit 2", async () => {
    const run = await user.pi(["-p", "--model", "mock/mock-1", "--tools", "read,+bash", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "pi: --tools mixes tool names (read) with +name/-name changes (+bash); use one or the other\n",
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("pi 1.6.0's model and session flags", () => {
  it("--thinking max asks for xhigh, the strongest level a provider here takes", async () => {
    writeFileSync(
      join(user.agent, "models.json"),
      JSON.stringify({
        providers: {
          mock: {
            baseUrl: `${server.url}/v1`,
            api: "openai-completions",
            apiKey: "MOCK_KEY",
            models: [{ id: "mock-r", reasoning: true, contextWindow: 128000, maxTokens: 4096 }],
          },
        },
      }),
    );
    server.enqueue({ sse: completionsText("ok") });
    const run = await user.pi(["-p", "--model", "mock/mock-r", "--thinking", "max", "hi"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(server.requests[0]!.body.reasoning_effort).toBe("xhigh");
  });

  it("-n/--name gives the new session its display name", async () => {
    server.enqueue({ sse: completionsText("ok") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "-n", "Refactor auth", "hi"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [file] = user.sessionFiles();
    expect(
      sessionLines(file!)
        .filter((l: any) => l.type === "session_info")
        .map((l: any) => l.name),
    ).toEqual(["Refactor auth"]);
  });

  it("--fork continues in a copy of the session; the original stays as it was", async () => {
    server.enqueue({ sse: completionsText("first answer") }, { sse: completionsText("second answer") });
    expect((await user.pi(["-p", "--model", "mock/mock-1", "first"])).code).toBe(0);
    const [original] = user.sessionFiles();
    const before = readFileSync(original!, "utf8");
    const id = sessionLines(original!)[0].id as string;
    const run = await user.pi(["-p", "--model", "mock/mock-1", "--fork", id.slice(0, 8), "second"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(readFileSync(original!, "utf8")).toBe(before);
    const fork = user.sessionFiles().find((f) => f !== original)!;
    expect(sessionLines(fork)[0]).toMatchObject({ parentSession: original });
    expect(messageRoles(fork)).toEqual(["user", "assistant", "user", "assistant"]);
    // The second request carried the first exchange.
    expect(server.requests[1]!.body.messages.map((m: any) => m.content)).toContain("first answer");
  });

  it("--fork with --continue, or of a missing file, is refused in one line, exit 2", async () => {
    const both = await user.pi(["-p", "--model", "mock/mock-1", "--fork", "abc", "-c", "hi"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe("pi: --fork and --continue cannot be combined; --fork already picks the session\n");
    const missing = await user.pi(["-p", "--model", "mock/mock-1", "--fork", "./gone.jsonl", "hi"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("pi: --fork ./gone.jsonl: no such session file\n");
  });
});

describe("pi 1.6.0's --session-id", () => {
  it("starts the new session under the id, then opens that session again by it", async () => {
    server.enqueue({ sse: completionsText("first answer") }, { sse: completionsText("second answer") });
    const first = await user.pi(["-p", "--model", "mock/mock-1", "--session-id", "release-2.1_a", "first"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const [file] = user.sessionFiles();
    expect(sessionLines(file!)[0]).toMatchObject({ type: "session", id: "release-2.1_a" });
    expect(file!.endsWith("_release-2.1_a.jsonl")).toBe(true);
    const again = await user.pi(["-p", "--model", "mock/mock-1", "--session-id", "release-2.1_a", "second"]);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(user.sessionFiles()).toEqual([file]);
    expect(messageRoles(file!)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(server.requests[1]!.body.messages.map((m: any) => m.content)).toContain("first answer");
  });

  it("a bad id, or --session-id with --continue, is refused in one line, exit 2", async () => {
    const bad = await user.pi(["-p", "--model", "mock/mock-1", "--session-id", "../etc", "hi"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'pi: --session-id "../etc" is not a session id (letters, digits, . _ -; a letter or digit first and last)\n',
    );
    const both = await user.pi(["-p", "--model", "mock/mock-1", "--session-id", "abc", "-c", "hi"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      "pi: --session-id and --continue cannot be combined; --session-id already picks the session\n",
    );
    expect(server.requests).toHaveLength(0);
    expect(user.sessionFiles()).toEqual([]);
  });
});

describe("pi 1.6.0's --no-mcp", () => {
  it("a server of <agent>/mcp.json is not started with --no-mcp, and is without it", async () => {
    const marker = join(user.home, "mcp-server-ran");
    writeFileSync(
      join(user.agent, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          marker: {
            command: process.execPath,
            args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`],
          },
        },
      }),
    );
    server.enqueue({ sse: completionsText("ok") }, { sse: completionsText("ok") });
    const off = await user.pi(["-p", "--model", "mock/mock-1", "--no-mcp", "hi"]);
    expect(off.stderr).toBe("");
    expect(off.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const on = await user.pi(["-p", "--model", "mock/mock-1", "hi"]);
    expect(on.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("pi 1.6.0's --no-skills and --no-prompt-templates", () => {
  /** Runs `pi -p` with `flags` and returns the request's whole messages list as text. */
  async function sentWith(flags: string[], prompt: string): Promise<string> {
    server.enqueue({ sse: completionsText("ok") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", ...flags, prompt]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    return JSON.stringify(server.requests.at(-1)!.body.messages);
  }

  it("-ns/--no-skills leaves the agent folder's skills out of the system prompt", async () => {
    mkdirSync(join(user.agent, "skills", "tidy-imports"), { recursive: true });
    writeFileSync(
      join(user.agent, "skills", "tidy-imports", "SKILL.md"),
      "---\nname: tidy-imports\ndescription: Sorts and dedupes import lines in a file\n---\nSort them.\n",
    );
    expect(await sentWith([], "hi")).toContain("Sorts and dedupes import lines in a file");
    for (const flag of ["--no-skills", "-ns"])
      expect(await sentWith([flag], "hi")).not.toContain("Sorts and dedupes import lines in a file");
  });

  it("-np/--no-prompt-templates leaves /name as typed instead of expanding the template", async () => {
    mkdirSync(join(user.agent, "prompts"), { recursive: true });
    writeFileSync(join(user.agent, "prompts", "review.md"), "Review the staged changes for $1 carefully.\n");
    expect(await sentWith([], "/review security")).toContain("Review the staged changes for security carefully.");
    for (const flag of ["--no-prompt-templates", "-np"]) {
      const sent = await sentWith([flag], "/review security");
      expect(sent).toContain("/review security");
      expect(sent).not.toContain("Review the staged changes");
    }
  });
});
