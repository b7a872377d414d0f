/**
 * A built-in Mistral model through the built `pi -p`: the catalog routes it to provider-mistral
 * (mistral-conversations), which streams Mistral's SSE from a local server (models.json moves only the
 * base URL). The run loads no provider SDK and not Node's fetch (undici): it sends over the host's
 * node:http fetch. Without a key the run ends in one line naming MISTRAL_API_KEY.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer, type SseEvent } from "../support/mock-llm-server.js";
import { agentHome, type AgentHome } from "./agent-home.js";
import { runPiRecordingModules, sdksIn } from "./record-modules.js";

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
});

const chunk = (delta: unknown, finish: string | null = null): SseEvent => ({
  data: { id: "cmpl-e2e", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] },
});

describe("pi -p with a Mistral model (built CLI)", () => {
  it("streams the answer from Mistral's chat completions with MISTRAL_API_KEY, loading no SDK", async () => {
    writeFileSync(join(user.agent, "models.json"), JSON.stringify({ providers: { mistral: { baseUrl: server.url } } }));
    server.enqueue({
      sse: [chunk({ role: "assistant", content: "Bonjour" }), chunk({ content: " !" }), chunk({ content: "" }, "stop")],
      rawTail: "data: [DONE]\n\n",
    });
    const { run, modules, builtins } = await runPiRecordingModules(
      ["-p", "--no-session", "--model", "mistral/mistral-medium-latest", "--no-tools", "salut"],
      user.project,
      { ...user.env, MISTRAL_API_KEY: "mk-e2e" },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Bonjour !\n");
    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer mk-e2e");
    expect(request.body).toMatchObject({ model: "mistral-medium-latest", stream: true });
    expect(modules.some((url) => url.endsWith("/dist/plugins/provider-mistral/index.js"))).toBe(true);
    expect(sdksIn(modules)).toEqual([]);
    expect(builtins).not.toContain("internal/deps/undici/undici");
  });

  it("without a key says to set MISTRAL_API_KEY, in one line, and sends nothing", async () => {
    const { run } = await runPiRecordingModules(
      ["-p", "--no-session", "--model", "mistral/mistral-medium-latest", "hi"],
      user.project,
      { ...user.env, MISTRAL_API_KEY: "" },
    );
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("MISTRAL_API_KEY");
    expect(server.requests).toEqual([]);
  });
});
