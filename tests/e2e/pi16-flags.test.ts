/**
 * pi 1.6.0's flags end to end: the built `pi` against MockLlmServer (a models.json custom provider),
 * checking what each flag changes in the request the server receives.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "./agent-home.js";

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
