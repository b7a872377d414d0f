/**
 * Project trust on the built `pi -p`: a cloned repository's `.pi/plugins.json` runs code, so in a folder
 * the user never trusted it is ignored with one notice line and the run goes on without it; `--approve`
 * lets it load for that one run (remembering nothing), and `pi trust` for good. The project plugin here
 * provides a tool, so whether it loaded shows in the tool list the mock server received and in
 * `pi plugins`. `/trust` saves the decision from inside a session; `-a` with `-na` is refused.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, completionsToolCall, type AgentHome } from "./agent-home.js";

/** A project plugin that provides one tool, written as a user would, against the "pi-host" module. */
const PROJECT_TOOL_PLUGIN = `
import { definePlugin, ToolContract, Type } from "pi-host";

export default definePlugin({
  id: "project-echo",
  version: "1.0.0",
  provides: [ToolContract],
  setup(ctx) {
    ctx.provide(
      ToolContract,
      {
        name: "project_echo",
        description: "Echoes its text back, prefixed so the test can tell it ran.",
        parameters: Type.Object({ text: Type.String() }),
        async execute(_id, params) {
          return { content: [{ type: "text", text: "project echo: " + params.text }] };
        },
      },
      { key: "project_echo" },
    );
  },
});
`;

let server: MockLlmServer;
let user: AgentHome;
let projectFile: string;

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
  mkdirSync(join(user.project, ".pi", "plugins"), { recursive: true });
  writeFileSync(join(user.project, ".pi", "plugins", "project-echo.ts"), PROJECT_TOOL_PLUGIN);
  projectFile = join(user.project, ".pi", "plugins.json");
  writeFileSync(projectFile, JSON.stringify({ plugins: [{ id: "project-echo", use: "./plugins/project-echo.ts" }] }));
});

/** The tool names of one recorded Chat Completions request. */
function toolNames(request: { body: any }): string[] {
  return (request.body.tools ?? []).map((t: any) => t.function.name).sort();
}

/** The ids `pi plugins --json` lists, with the given extra flags. */
async function pluginIds(flags: string[]): Promise<string[]> {
  const run = await user.pi(["plugins", "--json", ...flags]);
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as Array<{ id: string; status: string }>)
    .filter((p) => p.status === "active")
    .map((p) => p.id);
}

describe("an untrusted project's .pi/plugins.json (built CLI, models.json provider on MockLlmServer)", () => {
  it("pi -p without --approve: one notice line, the run goes on without the project's plugin", async () => {
    server.enqueue({ sse: completionsText("No project tools here.") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hi"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("No project tools here.\n");
    expect(run.stderr).toBe(
      `pi: skipped project resources in ${user.project} (.pi/plugins.json): the project is not trusted; run "pi trust" or /trust to trust it, or pass --approve for this run\n`,
    );
    expect(server.requests).toHaveLength(1);
    const tools = toolNames(server.requests[0]!);
    expect(tools).toContain("read");
    expect(tools).not.toContain("project_echo");
    expect(await pluginIds([])).not.toContain("project-echo");
  });

  it("pi -p --approve: the project's tool is offered to the model and runs; nothing is remembered", async () => {
    server.enqueue(
      { sse: completionsToolCall("call_echo_1", "project_echo", { text: "tangerine" }) },
      { sse: completionsText("It echoed tangerine.") },
    );
    const run = await user.pi(["-p", "--approve", "--model", "mock/mock-1", "use the project tool"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("It echoed tangerine.\n");
    expect(server.requests).toHaveLength(2);
    expect(toolNames(server.requests[0]!)).toContain("project_echo");
    const toolMessage = server.requests[1]!.body.messages.find((m: any) => m.role === "tool");
    expect(toolMessage).toMatchObject({ tool_call_id: "call_echo_1" });
    expect(JSON.stringify(toolMessage.content)).toContain("project echo: tangerine");

    expect(await pluginIds(["--approve"])).toContain("project-echo");
    // --approve is for that run only: no trust list is written, and the next run ignores the project again.
    expect(existsSync(join(user.agent, "trust.json"))).toBe(false);
    expect(existsSync(join(user.agent, "trusted-projects.json"))).toBe(false);
    expect(await pluginIds([])).not.toContain("project-echo");
  });

  it("after pi trust the project's plugin loads without --approve", async () => {
    expect((await user.pi(["trust"])).code).toBe(0);
    server.enqueue({ sse: completionsText("Trusted.") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hi"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(toolNames(server.requests[0]!)).toContain("project_echo");
  });

  it("/trust in a session saves the decision in trust.json for the next start", async () => {
    await user.pi(["-p", "--model", "mock/mock-1", "/trust"]);
    expect(server.requests).toHaveLength(0);
    expect(JSON.parse(readFileSync(join(user.agent, "trust.json"), "utf8"))).toEqual({ [user.project]: true });
    expect(await pluginIds([])).toContain("project-echo");
    await user.pi(["-p", "--model", "mock/mock-1", "/trust no"]);
    expect(JSON.parse(readFileSync(join(user.agent, "trust.json"), "utf8"))).toEqual({ [user.project]: false });
    expect(await pluginIds([])).not.toContain("project-echo");
  });

  it("--approve with --no-approve is bad input: one line, exit 2, nothing runs", async () => {
    const run = await user.pi(["-p", "-a", "-na", "--model", "mock/mock-1", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("pi: --approve and --no-approve cannot be combined; choose one\n");
    expect(server.requests).toHaveLength(0);
  });
});
