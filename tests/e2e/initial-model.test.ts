/**
 * The model a run starts with when no flag, session or setting chose one: as pi 1.6 does, the default
 * model of the first provider that has a key (here a models.json provider with an `apiKey`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText } from "./agent-home.js";

let server: MockLlmServer;
beforeAll(async () => {
  server = await new MockLlmServer().start();
});
afterAll(async () => {
  await server.close();
});

describe("the starting model when nothing chose one (built CLI)", () => {
  it("pi -p runs on the model of a provider that has a key, with no --model and no settings", async () => {
    const user = agentHome();
    user.useMockServer(`${server.url}/v1`);
    server.enqueue({ sse: completionsText("started without --model") });
    const run = await user.pi(["-p", "hello"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("started without --model");
    expect((server.requests.at(-1)!.body as { model?: string }).model).toBe("mock-1");
  });

  it("with no key anywhere, a prompt still says how to choose a model", async () => {
    const run = await agentHome().pi(["-p", "hello"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no model selected");
  });
});
