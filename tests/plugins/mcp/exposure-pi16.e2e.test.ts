/**
 * The built CLI's model requests beside pi 1.6.0's for the same mcp.json (`npm run build` first). The
 * fixture `tests/fixtures/mcp/pi16-tools.json` holds the `tools` of every request pi 1.6.0 sent in print
 * mode with the tiny stdio server under each exposure mode (captured by capture-pi16.mjs in that folder);
 * here pi-host runs the same modes, prompts and scripted answers against a MockLlmServer. The tool names
 * (built-in tools aside) must come in the same order on every request, and every MCP tool and
 * `tool_search` must be declared exactly as pi declares it. `codemode` is compared by name: its
 * description is its own plugin's (it describes its sandbox differently, see docs/codemode.md).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pi16Tools from "../../fixtures/mcp/pi16-tools.json" with { type: "json" };
import { MODES } from "../../fixtures/mcp/exposure-modes.mjs";
import { agentHome, completionsText, completionsToolCall } from "../../e2e/agent-home.js";
import { PI_BIN } from "../../e2e/run-pi.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";

const TINY_SERVER = fileURLToPath(new URL("../../fixtures/mcp/tiny-server.mjs", import.meta.url));

interface WireTool {
  type: string;
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * The built-in tools, left out of the comparison: which of them are on by default is the tool plugins'
 * and the distribution's business (pi 1.6.0 declares read, bash, edit and write), not MCP's.
 */
const BUILTIN_TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"];

/** Compared whole: the tools whose declaration MCP decides. */
function comparedWhole(name: string): boolean {
  return name.startsWith("mcp__") || name === "tool_search";
}

let server: MockLlmServer;
beforeAll(async () => {
  if (!existsSync(PI_BIN)) throw new Error('dist is missing; run "npm run build" first');
  server = await new MockLlmServer().start();
});
afterAll(async () => {
  await server.close();
});

describe("MCP exposure: pi-host's request tools match pi 1.6.0's", () => {
  for (const mode of MODES) {
    it(`${mode.name}: ${JSON.stringify(mode.entry)}`, async () => {
      const user = agentHome();
      user.useMockServer(`${server.url}/v1`);
      writeFileSync(
        join(user.agent, "mcp.json"),
        JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER], ...mode.entry } } }),
      );
      server.clearScript();
      const before = server.requests.length;
      for (const answer of [...mode.answers, { text: "done" }])
        server.enqueue({
          sse:
            "tool" in answer ? completionsToolCall("call_1", answer.tool, answer.args) : completionsText(answer.text),
        });
      const run = await user.pi(["-p", "--no-session", "--model", "mock/mock-1", mode.prompt]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const ours = server.requests.slice(before).map((r) => (r.body.tools ?? []) as WireTool[]);
      const theirs = (pi16Tools as unknown as Record<string, WireTool[][]>)[mode.name]!;
      const names = (requests: WireTool[][]): string[][] =>
        requests.map((tools) => tools.map((t) => t.function.name).filter((name) => !BUILTIN_TOOLS.includes(name)));
      expect(names(ours)).toEqual(names(theirs));
      for (const [i, tools] of theirs.entries()) {
        for (const tool of tools.filter((t) => comparedWhole(t.function.name))) {
          const mine = ours[i]!.find((t) => t.function.name === tool.function.name)!;
          expect({ type: mine.type, ...mine.function }).toEqual({ type: tool.type, ...tool.function });
        }
      }
    });
  }

  it("a codemode script calls a tool of a codemode-exposure server; tool_search loads a deferred one for the next call", async () => {
    const user = agentHome();
    user.useMockServer(`${server.url}/v1`);
    const entry = (exposure: string) => ({ command: process.execPath, args: [TINY_SERVER], exposure });
    writeFileSync(
      join(user.agent, "mcp.json"),
      JSON.stringify({ mcpServers: { tiny: entry("codemode"), later: entry("deferred") } }),
    );
    server.clearScript();
    const before = server.requests.length;
    const code = 'return await tools.mcp__tiny__echo({ text: "from a script" });';
    server.enqueue(
      { sse: completionsToolCall("call_1", "codemode", { code }) },
      { sse: completionsToolCall("call_2", "tool_search", { query: "later add", limit: 1 }) },
      { sse: completionsToolCall("call_3", "mcp__later__add", { a: 2, b: 3 }) },
      { sse: completionsText("done") },
    );
    const run = await user.pi(["-p", "--no-session", "--model", "mock/mock-1", "go"]);
    expect(run.code).toBe(0);
    const requests = server.requests.slice(before).map((r) => r.body);
    const toolTexts = (requests.at(-1)!.messages as any[])
      .filter((m) => m.role === "tool")
      .map((m) => (typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text).join("")));
    expect(toolTexts[0]).toBe("echo: from a script");
    expect(toolTexts[1]).toContain(
      "Loaded 1 tool. They are available from your next call:\n- mcp__later__add: Add two numbers",
    );
    expect(toolTexts[2]).toBe("5");
    const declared = (i: number) => (requests[i]!.tools as WireTool[]).map((t) => t.function.name);
    expect(declared(0)).toContain("codemode");
    expect(declared(0)).toContain("tool_search");
    expect(declared(0).filter((n) => n.startsWith("mcp__"))).toEqual([]);
    expect(declared(2).filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__later__add"]);
  });

  it("a trusted project's .pi/mcp.json override changes the user server's exposure: pi 1.6.0's direct list", async () => {
    const user = agentHome();
    user.useMockServer(`${server.url}/v1`);
    writeFileSync(
      join(user.agent, "mcp.json"),
      JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }),
    );
    mkdirSync(join(user.project, ".pi"), { recursive: true });
    writeFileSync(
      join(user.project, ".pi", "mcp.json"),
      JSON.stringify({ mcpServers: { tiny: { exposure: "direct" } } }),
    );
    server.clearScript();
    const before = server.requests.length;
    server.enqueue({ sse: completionsText("done") });
    const run = await user.pi(["-p", "--no-session", "--approve", "--model", "mock/mock-1", "hi"]);
    expect(run.code).toBe(0);
    const ours = server.requests.slice(before).map((r) => (r.body.tools ?? []) as WireTool[]);
    const theirs = (pi16Tools as unknown as Record<string, WireTool[][]>).direct!;
    const mcp = (tools: WireTool[]) => tools.filter((t) => comparedWhole(t.function.name));
    expect(mcp(ours[0]!)).toEqual(mcp(theirs[0]!));
    expect(ours[0]!.map((t) => t.function.name)).not.toContain("codemode");
  });
});
