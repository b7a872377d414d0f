/**
 * The three provider plugins of the default distribution, end to end through the built `pi -p`: a
 * models.json custom provider per wire protocol points at MockLlmServer, which answers in that API's
 * recorded SSE format. Each protocol prints its answer, loading its own SDK and no other, and a malformed
 * SSE line ends the run with one line on stderr quoting it. Bad input with the built-in providers: no key names the environment
 * variable and auth.json; a mistyped model or provider names the closest matches.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer, type ScriptedResponse } from "../support/mock-llm-server.js";
import { ANSWER_OPENING, MALFORMED_DATA_LINE, MALFORMED_TAIL } from "../fixtures/sse/anthropic-messages/errors.js";
import { TEXT_ANSWER } from "../fixtures/sse/anthropic-messages/text.js";
import { longText, MALFORMED_LINE, plainText } from "../fixtures/sse/google-generative-ai/responses.js";
import { textStream as completionsText } from "../fixtures/sse/openai-completions/text.js";
import { textStream as responsesText } from "../fixtures/sse/openai-responses/text.js";
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

/** One custom provider per wire protocol, all served by the mock. */
function useMockProviders(): void {
  const provider = (api: string, baseUrl: string, id: string) => ({
    api,
    baseUrl,
    apiKey: "MOCK_KEY",
    models: [{ id, contextWindow: 128000, maxTokens: 4096 }],
  });
  writeFileSync(
    join(user.agent, "models.json"),
    JSON.stringify({
      providers: {
        "mock-claude": provider("anthropic-messages", server.url, "claude-sonnet-4-5"),
        "mock-gpt": provider("openai-responses", `${server.url}/v1`, "gpt-5-mini"),
        "mock-chat": provider("openai-completions", `${server.url}/v1`, "gpt-4o-mini"),
        "mock-gemini": provider("google-generative-ai", `${server.url}/v1beta`, "gemini-2.5-flash"),
      },
    }),
  );
}

interface WireCase {
  api: string;
  /** The one SDK a run through this protocol may load. */
  sdk: string;
  model: string;
  path: string;
  answer: ScriptedResponse;
  text: string;
  malformed: ScriptedResponse;
  /** What the one error line must quote of the malformed data line. */
  quoted: string;
}

const CASES: WireCase[] = [
  {
    api: "anthropic-messages",
    sdk: "@anthropic-ai/sdk",
    model: "mock-claude/claude-sonnet-4-5",
    path: "/v1/messages",
    answer: { sse: TEXT_ANSWER },
    text: "Hello, world! How can I help?",
    malformed: { sse: ANSWER_OPENING, rawTail: MALFORMED_TAIL },
    quoted: MALFORMED_DATA_LINE,
  },
  {
    api: "openai-responses",
    sdk: "openai",
    model: "mock-gpt/gpt-5-mini",
    path: "/v1/responses",
    answer: { sse: responsesText },
    text: "Hello! How can I help you today?",
    malformed: {
      sse: responsesText.slice(0, 6),
      rawTail: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"oo\n\n',
    },
    quoted: String.raw`{\"type\":\"response.output_text.delta\",\"delta\":\"oo`,
  },
  {
    api: "openai-completions",
    sdk: "openai",
    model: "mock-chat/gpt-4o-mini",
    path: "/v1/chat/completions",
    answer: { sse: completionsText },
    text: "Hello! How can I help you today?",
    malformed: {
      sse: completionsText.slice(0, 3),
      rawTail: 'data: {"id":"chatcmpl-BZ3k","choices":[{"delta":{"content":"oops"\n\n',
    },
    quoted: String.raw`{\"id\":\"chatcmpl-BZ3k\",\"choices\":[{\"delta\":{\"content\":\"oops\"`,
  },
  {
    api: "google-generative-ai",
    sdk: "@google/genai",
    model: "mock-gemini/gemini-2.5-flash",
    path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    answer: { sse: plainText },
    text: "Hello there!",
    malformed: { sse: longText.slice(0, 2), rawTail: `${MALFORMED_LINE}\n\n` },
    quoted: MALFORMED_LINE,
  },
];

describe("pi -p through each provider plugin (models.json providers on MockLlmServer)", () => {
  for (const wire of CASES) {
    it(`${wire.api}: prints the streamed answer`, async () => {
      useMockProviders();
      server.enqueue(wire.answer);
      const run = await user.pi(["-p", "--no-session", "--model", wire.model, "hello"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${wire.text}\n`);
      expect(server.requests.map((r) => r.path)).toEqual([wire.path]);
    });

    it(`${wire.api}: the run loads ${wire.sdk} and no other provider SDK`, async () => {
      useMockProviders();
      server.enqueue(wire.answer);
      const { run, modules, builtins } = await runPiRecordingModules(
        ["-p", "--no-session", "--model", wire.model, "hello"],
        user.project,
        user.env,
      );
      expect(run.stdout).toBe(`${wire.text}\n`);
      expect(sdksIn(modules)).toEqual([wire.sdk]);
      // The OpenAI and Anthropic wires send over node:http (kit nodeFetch): Node's fetch (undici) stays
      // unloaded. Google's SDK uses the global fetch, so there the recorder must see undici.
      const undici = "internal/deps/undici/undici";
      if (wire.sdk === "openai" || wire.sdk === "@anthropic-ai/sdk") expect(builtins).not.toContain(undici);
      if (wire.sdk === "@google/genai") expect(builtins).toContain(undici);
    });

    it(`${wire.api}: a malformed SSE line ends the run with one line quoting it, not a crash`, async () => {
      useMockProviders();
      server.enqueue(wire.malformed);
      const run = await user.pi(["-p", "--no-session", "--model", wire.model, "hello"]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(wire.quoted);
      expect(run.stderr).not.toMatch(/\bat .+:\d+:\d+\)?$/m); // no stack trace
      expect(server.requests).toHaveLength(1);
    });
  }
});

describe("bad input with the built-in providers", () => {
  const keyless: Array<[model: string, provider: string, variables: string]> = [
    ["anthropic/claude-sonnet-4-5", "anthropic", "ANTHROPIC_API_KEY"],
    ["openai/gpt-5-mini", "openai", "OPENAI_API_KEY"],
    ["google/gemini-2.5-flash", "google", "GEMINI_API_KEY or GOOGLE_API_KEY"],
    ["xai/grok-4", "xai", "XAI_API_KEY"],
  ];
  // Providers with an account sign-in also name `pi auth login`.
  const withLogin = new Set(["anthropic", "openai", "xai"]);
  for (const [model, provider, variables] of keyless) {
    it(`no key for ${provider}: one line naming ${variables} and auth.json; nothing sent`, async () => {
      const run = await user.pi(["-p", "--no-session", "--model", model, "hello"]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr.trim()).toBe(
        `no API key for "${provider}": set ${variables}, ${withLogin.has(provider) ? `run "pi auth login ${provider}", ` : ""}add {"${provider}": {"type": "api_key", "key": "..."}} to ${join(user.agent, "auth.json")}, or pass --api-key`,
      );
    });
  }

  it("a mistyped model or provider: one line with the closest matches", async () => {
    const model = await user.pi(["-p", "--no-session", "--model", "anthropic/claude-sonet-4-5", "hello"]);
    expect(model.code).not.toBe(0);
    expect(model.stderr.trim().split("\n")).toHaveLength(1);
    expect(model.stderr).toMatch(
      /unknown model "anthropic\/claude-sonet-4-5": did you mean anthropic\/claude-sonnet-4-5\b/,
    );
    const provider = await user.pi(["-p", "--no-session", "--model", "antropic/claude-sonnet-4-5", "hello"]);
    expect(provider.code).not.toBe(0);
    expect(provider.stderr.trim()).toMatch(/unknown provider "antropic": did you mean anthropic\?$/);
  });
});
