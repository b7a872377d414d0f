/**
 * A tool call whose arguments are not complete JSON is answered with an error result and never run:
 * before, the provider "repaired" a cut-off `bash` command and the loop executed the guess. Driven
 * through the real OpenAI SDK against the local mock server, so the arguments arrive as a real stream.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { PROVIDERS } from "../provider-guards/fixtures.js";
import { LoopHarness, tool } from "./harness.js";

let server: MockLlmServer;
beforeEach(async () => {
  server = await new MockLlmServer().start();
});
afterEach(async () => {
  await server.close();
});

it.each(PROVIDERS.filter((c) => c.name !== "google-generative-ai"))(
  "$name: an unterminated tool-call JSON gives an error tool result and runs nothing",
  async (c) => {
    const ran: unknown[] = [];
    const harness = new LoopHarness();
    harness.tools = [tool("bash", async (args) => (ran.push(args), "ran"))];
    const model = c.model(server.url);
    const base = harness.config.bind(harness);
    harness.config = () => ({
      ...base(),
      model,
      stream: (_m, context, options) => c.provider.stream(model, context, { ...options, apiKey: "k" }),
    });
    server.enqueue({ sse: c.toolCall('{"command": "rm -rf build && echo do') }, { sse: c.answer });

    const added = await harness.run("clean up");

    expect(ran).toEqual([]);
    const result = added.find((m): m is ToolResultMessage => m.role === "toolResult");
    expect(result?.isError).toBe(true);
    const text = result!.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(text).toMatch(/was not run: the arguments were not valid JSON: /);
    // The model got the error back and answered.
    expect(server.requests).toHaveLength(2);
  },
);
