/**
 * Azure OpenAI through the real AzureOpenAI client against a local server speaking OpenAI's wire:
 * reasoning, text and a tool call over the Responses API with the `api-key` header and `api-version`
 * query, the deployment name from AZURE_OPENAI_DEPLOYMENT_NAME_MAP, a Foundry model over Chat
 * Completions on the same endpoint, and the one line for a missing endpoint.
 */
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AiProviderContract,
  type AiProvider,
  type AssistantMessage,
  type AssistantMessageEvent,
  type Context,
  type Model,
} from "../../../contracts/ai/index.js";
import { Kernel, type ManyHandle } from "../../../kernel/index.js";
import plugin from "../../../plugins/ai/provider-openai/index.js";
import { textStream as completionsText } from "../../fixtures/sse/openai-completions/text.js";
import { reasoningToolStream, toolCall } from "../../fixtures/sse/openai-responses/reasoning-text.js";
import { isolateEnv } from "../../support/env-scope.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";

const ENV = [
  "AZURE_OPENAI_BASE_URL",
  "AZURE_OPENAI_RESOURCE_NAME",
  "AZURE_OPENAI_API_VERSION",
  "AZURE_OPENAI_DEPLOYMENT_NAME_MAP",
];
let restore: () => void;
let server: MockLlmServer;
let kernel: Kernel;
let providers: ManyHandle<AiProvider>;

beforeEach(async () => {
  restore = isolateEnv(ENV);
  server = await new MockLlmServer().start();
  kernel = new Kernel();
  const booted = await kernel.boot([
    { id: "provider-openai", source: { kind: "inline", label: "provider-openai", definition: plugin } },
  ]);
  expect(booted.errors).toEqual([]);
  providers = kernel.useAll(AiProviderContract);
});

afterEach(async () => {
  await kernel.shutdown();
  await server.close();
  restore();
});

/** The catalog's entry: its URL template is unfilled when AZURE_OPENAI_RESOURCE_NAME is not set. */
function azureModel(overrides: Partial<Model> = {}): Model {
  return {
    id: "gpt-5-mini",
    name: "GPT-5 Mini",
    api: "azure-openai-responses",
    provider: "azure",
    baseUrl: "https://{AZURE_OPENAI_RESOURCE_NAME}.openai.azure.com/openai/v1",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
    contextWindow: 272_000,
    maxTokens: 128_000,
    ...overrides,
  };
}

const context: Context = {
  systemPrompt: "Be brief.",
  messages: [{ role: "user", content: "What is in notes.md?", timestamp: 1 }],
  tools: [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }],
};

async function drain(model: Model): Promise<{ events: AssistantMessageEvent[]; final: AssistantMessage }> {
  const provider = providers.find(model.api)!;
  const stream = provider.call("stream", model, context, { apiKey: "azure-key-123", reasoning: "high" });
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, final: await stream.result() };
}

describe("Azure OpenAI", () => {
  it("streams reasoning and a tool call over the Responses API with api-key, api-version and the mapped deployment", async () => {
    process.env.AZURE_OPENAI_BASE_URL = `${server.url}/openai/v1`;
    process.env.AZURE_OPENAI_DEPLOYMENT_NAME_MAP = "gpt-5.4=other, gpt-5-mini=my-mini-deployment";
    process.env.AZURE_OPENAI_API_VERSION = "2025-04-01-preview";
    server.enqueue({ sse: reasoningToolStream });
    const { events, final } = await drain(azureModel());

    expect(final.errorMessage).toBeUndefined();
    expect(final.stopReason).toBe("toolUse");
    expect(final.api).toBe("azure-openai-responses");
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("start");
    expect(types).toContain("thinking_delta");
    expect(types.filter((t) => t === "toolcall_end")).toHaveLength(1);
    expect(types.at(-1)).toBe("done");
    const thinking = final.content.find((b) => b.type === "thinking");
    expect(thinking?.type === "thinking" && thinking.thinking).toContain("The user wants 2+2.");
    expect(final.content.find((b) => b.type === "toolCall")).toMatchObject({
      name: toolCall.name,
      arguments: { path: "notes.md" },
    });
    expect(final.usage).toMatchObject({ input: 25, output: 180 });

    const request = server.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/openai/v1/responses?api-version=2025-04-01-preview");
    expect(request.headers["api-key"]).toBe("azure-key-123");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body.model).toBe("my-mini-deployment");
    expect(request.body.stream).toBe(true);
    expect(request.body.reasoning).toEqual({ effort: "high", summary: "auto" });
    expect(request.body.tools[0]).toMatchObject({ type: "function", name: "read" });
  });

  it("sends a Foundry model over Chat Completions to the resolved Azure endpoint, with its deployment name", async () => {
    process.env.AZURE_OPENAI_BASE_URL = `${server.url}/openai/v1`;
    process.env.AZURE_OPENAI_DEPLOYMENT_NAME_MAP = "deepseek-v4-pro=my-deepseek";
    server.enqueue({ sse: completionsText });
    const { final } = await drain(
      azureModel({ id: "deepseek-v4-pro", api: "openai-completions", reasoning: false, baseUrl: "" }),
    );
    expect(final.errorMessage).toBeUndefined();
    expect(final.content.some((b) => b.type === "text" && b.text.length > 0)).toBe(true);
    const request = server.requests[0]!;
    expect(request.path).toBe("/openai/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer azure-key-123");
    expect(request.body.model).toBe("my-deepseek");
  });

  it("says which variable to set when no endpoint is configured, sending nothing", async () => {
    const { events, final } = await drain(azureModel());
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(final.errorMessage).toBe(
      "Azure OpenAI needs an endpoint: set AZURE_OPENAI_BASE_URL (https://<resource>.openai.azure.com) or AZURE_OPENAI_RESOURCE_NAME",
    );
    expect(server.requests).toEqual([]);
  });
});

describe("azureTarget", () => {
  it("builds the endpoint from the resource name and gives resource root URLs the /openai/v1 path", async () => {
    const { azureTarget } = await import("../../../plugins/ai/provider-openai/azure-config.js");
    const model = azureModel();
    expect(azureTarget(model, { AZURE_OPENAI_RESOURCE_NAME: "contoso" })).toEqual({
      baseUrl: "https://contoso.openai.azure.com/openai/v1",
      apiVersion: "v1",
      deployment: "gpt-5-mini",
    });
    for (const root of ["https://contoso.ai.azure.com", "https://contoso.cognitiveservices.azure.com/openai/"])
      expect(azureTarget(model, { AZURE_OPENAI_BASE_URL: root }).baseUrl).toBe(new URL(root).origin + "/openai/v1");
    // The base URL wins over the resource name; a proxy path is kept as it is.
    expect(
      azureTarget(model, { AZURE_OPENAI_BASE_URL: "https://proxy.example/azure/", AZURE_OPENAI_RESOURCE_NAME: "x" })
        .baseUrl,
    ).toBe("https://proxy.example/azure");
  });
});
