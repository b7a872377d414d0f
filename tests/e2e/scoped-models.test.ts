/**
 * `--models` and the `enabledModels` setting, as pi 1.6.0 reads them: the scope picks a new session's
 * first model (the default model when it is in scope, else the first scoped one, with a pinned
 * `:thinking`), Ctrl+P / RPC `cycle_model` visits only the scope, and a pattern that matches nothing is
 * a warning. Built CLI against a local OpenAI-compatible server.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { type AgentHome, agentHome, completionsText } from "./agent-home.js";

let server: MockLlmServer;
beforeAll(async () => {
  server = await new MockLlmServer().start();
});
afterAll(async () => {
  await server.close();
});

/** A user whose models.json has one keyed provider with four models (two reasoning ones). */
function user(): AgentHome {
  const home = agentHome();
  const model = (id: string, reasoning = false) => ({ id, reasoning, contextWindow: 128000, maxTokens: 4096 });
  writeFileSync(
    join(home.agent, "models.json"),
    JSON.stringify({
      providers: {
        mock: {
          baseUrl: `${server.url}/v1`,
          api: "openai-completions",
          apiKey: "MOCK_KEY",
          models: [model("alpha-1"), model("beta-think", true), model("gamma-fast"), model("gamma-think", true)],
        },
      },
    }),
  );
  return home;
}

/** The model id of the last request the server saw. */
function lastModel(): string | undefined {
  return (server.requests.at(-1)!.body as { model?: string }).model;
}

describe("--models scopes (built CLI)", () => {
  it("a new session starts on the first scoped model", async () => {
    server.enqueue({ sse: completionsText("ok") });
    const run = await user().pi(["--models", "gamma-fast,alpha-1", "-p", "hi"]);
    expect(run.code).toBe(0);
    expect(lastModel()).toBe("gamma-fast");
  });

  it("globs match provider/id or the bare id, any case, and :thinking pins the level", async () => {
    server.enqueue({ sse: completionsText("ok") });
    const run = await user().pi(["--models", "MOCK/*-THINK:high", "-p", "hi"]);
    expect(run.code).toBe(0);
    expect(lastModel()).toBe("beta-think");
    expect((server.requests.at(-1)!.body as { reasoning_effort?: string }).reasoning_effort).toBe("high");
  });

  it("the settings' default model wins when it is in scope; --thinking beats a pinned level", async () => {
    const home = user();
    writeFileSync(
      join(home.agent, "settings.json"),
      JSON.stringify({ defaultProvider: "mock", defaultModel: "gamma-think" }),
    );
    server.enqueue({ sse: completionsText("ok") });
    const run = await home.pi(["--models", "*think:low", "--thinking", "high", "-p", "hi"]);
    expect(run.code).toBe(0);
    expect(lastModel()).toBe("gamma-think");
    expect((server.requests.at(-1)!.body as { reasoning_effort?: string }).reasoning_effort).toBe("high");
  });

  it("enabledModels in settings.json scopes the same way when --models is absent", async () => {
    const home = user();
    writeFileSync(join(home.agent, "settings.json"), JSON.stringify({ enabledModels: ["gamma-*"] }));
    server.enqueue({ sse: completionsText("ok") });
    const run = await home.pi(["-p", "hi"]);
    expect(run.code).toBe(0);
    expect(lastModel()).toBe("gamma-fast");
  });

  it("--model still beats the scope", async () => {
    server.enqueue({ sse: completionsText("ok") });
    const run = await user().pi(["--models", "gamma-*", "--model", "mock/alpha-1", "-p", "hi"]);
    expect(run.code).toBe(0);
    expect(lastModel()).toBe("alpha-1");
  });

  it("a pattern that matches nothing is one warning line; the run goes on", async () => {
    server.enqueue({ sse: completionsText("ok") });
    const run = await user().pi(["--models", "nothing-like-it,alpha-1", "-p", "hi"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('no models match pattern "nothing-like-it"');
    expect(lastModel()).toBe("alpha-1");
  });

  it("RPC cycle_model visits only the scope, wrapping around, with each pinned level", async () => {
    const input = [
      { id: "1", type: "cycle_model" },
      { id: "2", type: "cycle_model" },
      { id: "3", type: "get_state" },
    ]
      .map((c) => JSON.stringify(c))
      .join("\n");
    const run = await user().pi(["--mode", "rpc", "--models", "alpha-1,gamma-think:minimal"], { input: `${input}\n` });
    const responses = run.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { type: string; id?: string; data?: any })
      .filter((r) => r.type === "response");
    // RPC commands run concurrently, so the two cycles may answer in either order: the one that ran first
    // answers first, and together they visit the scope once round.
    const cycled = responses.filter((r) => r.id === "1" || r.id === "2").map((r) => r.data?.model?.id);
    expect(cycled).toEqual(["gamma-think", "alpha-1"]);
    const levels = responses.filter((r) => r.id === "1" || r.id === "2").map((r) => r.data?.thinkingLevel);
    expect(levels).toEqual(["minimal", "off"]);
    // pi's answer says the model came from the scope.
    expect(responses.filter((r) => r.id === "1" || r.id === "2").map((r) => r.data?.isScoped)).toEqual([true, true]);
  });

  it("RPC cycle_model without a scope cycles every available model and says isScoped: false", async () => {
    const input = `${JSON.stringify({ id: "1", type: "cycle_model" })}\n`;
    const run = await user().pi(["--mode", "rpc", "--model", "mock/alpha-1"], { input });
    const response = run.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { type: string; id?: string; data?: any })
      .find((r) => r.type === "response" && r.id === "1");
    expect(response?.data).toMatchObject({ model: { id: "beta-think" }, isScoped: false });
  });

  it("an empty --models is a usage error, exit 2", async () => {
    const run = await user().pi(["--models", ",", "-p", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--models is empty");
  });
});
