/**
 * Issue 3, bad input, for a run with no API key anywhere: the auth plugin (through AuthContract) says
 * in one line which environment variable to set and which auth.json to edit, for each provider a model
 * can name; and a provider plugin handed no key ends its stream with one error event and sends nothing.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthContract, type AuthStore } from "../../../contracts/ai/index.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import authPlugin from "../../../plugins/ai/auth/index.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import {
  bootProviders,
  claudeModel,
  deepseekModel,
  drain,
  geminiModel,
  gptModel,
  NO_RETRY,
  type Providers,
  type WireApi,
} from "./harness.js";

/** Every variable a key could come from for the providers below; the machine running the tests may set some. */
const KEY_VARIABLES = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "DEEPSEEK_API_KEY"];
const saved = Object.fromEntries(KEY_VARIABLES.map((name) => [name, process.env[name]]));

let agentDir: string;
let authKernel: Kernel;
let auth: Handle<AuthStore>;
let providers: Providers;
let server: MockLlmServer;

beforeAll(async () => {
  for (const name of KEY_VARIABLES) delete process.env[name];
  agentDir = mkdtempSync(join(tmpdir(), "pi-bad-input-"));
  authKernel = new Kernel();
  const boot = await authKernel.boot([
    { id: "auth", source: { kind: "inline", label: "auth", definition: authPlugin }, config: { agentDir } },
  ]);
  expect(boot.errors).toEqual([]);
  auth = authKernel.use(AuthContract);
  providers = await bootProviders();
  server = await new MockLlmServer().start();
});

afterAll(async () => {
  await authKernel.shutdown();
  await providers.kernel.shutdown();
  await server.close();
  for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
});

describe("no API key", () => {
  const cases: Array<[provider: string, variables: string]> = [
    ["anthropic", "ANTHROPIC_API_KEY"],
    ["openai", "OPENAI_API_KEY"],
    ["google", "GEMINI_API_KEY or GOOGLE_API_KEY"],
    ["deepseek", "DEEPSEEK_API_KEY"],
  ];
  for (const [provider, variables] of cases) {
    it(`${provider}: AuthContract has no key and says in one line to set ${variables} or add it to auth.json`, async () => {
      expect(await auth.call("apiKey", provider)).toBeUndefined();
      const message = auth.call("missingKeyMessage", provider);
      expect(message.split("\n")).toHaveLength(1);
      expect(message).toContain(`set ${variables}`);
      expect(message).toContain(`to ${join(agentDir, "auth.json")}`);
    });
  }

  const models: Array<[WireApi, (url: string) => ReturnType<typeof claudeModel>]> = [
    ["anthropic-messages", claudeModel],
    ["openai-responses", gptModel],
    ["openai-completions", deepseekModel],
    ["google-generative-ai", geminiModel],
  ];
  for (const [api, model] of models) {
    it(`${api}: a stream without a key is one error event naming the provider, and no request`, async () => {
      const target = model(server.url);
      const stream = providers
        .handle(api)
        .call("stream", target, { messages: [{ role: "user", content: "hi", timestamp: 1 }] }, { retry: NO_RETRY });
      const turn = await drain(stream);
      expect(turn.types).toEqual(["error"]);
      expect(turn.message.stopReason).toBe("error");
      expect(turn.message.errorMessage!.split("\n")).toHaveLength(1);
      expect(turn.message.errorMessage).toContain(`No API key for provider "${target.provider}"`);
      expect(server.requests).toEqual([]);
    });
  }
});
