/**
 * Vertex AI through the real @google/genai SDK in Vertex mode against a local server: Application
 * Default Credentials from a GOOGLE_APPLICATION_CREDENTIALS file whose token endpoint is the local
 * server (the SDK's auth library refreshes it and sends the bearer token), `:streamGenerateContent` SSE
 * with thinking, text and one function call, and a Google Cloud API key instead of ADC.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AiProviderContract,
  type AiProvider,
  type AssistantMessage,
  type AssistantMessageEvent,
  type Context,
  type Model,
  type StreamOptions,
} from "../../../contracts/ai/index.js";
import { AMBIENT_CREDENTIALS } from "../../../kit/index.js";
import { Kernel, type ManyHandle } from "../../../kernel/index.js";
import plugin from "../../../plugins/ai/provider-google/index.js";
import { oneToolCall, thinkingThenText } from "../../fixtures/sse/google-generative-ai/responses.js";
import { isolateEnv } from "../../support/env-scope.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";

const ENV = [
  "GOOGLE_CLOUD_PROJECT",
  "GCLOUD_PROJECT",
  "GOOGLE_CLOUD_LOCATION",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CLOUD_API_KEY",
  "GOOGLE_API_KEY",
  "GEMINI_API_KEY",
];
let restore: () => void;
let server: MockLlmServer;
let kernel: Kernel;
let providers: ManyHandle<AiProvider>;
let dir: string;

beforeEach(async () => {
  restore = isolateEnv(ENV);
  dir = mkdtempSync(join(tmpdir(), "pi-vertex-"));
  server = await new MockLlmServer().start();
  kernel = new Kernel();
  const booted = await kernel.boot([
    { id: "provider-google", source: { kind: "inline", label: "provider-google", definition: plugin } },
  ]);
  expect(booted.errors).toEqual([]);
  providers = kernel.useAll(AiProviderContract);
});

afterEach(async () => {
  await kernel.shutdown();
  await server.close();
  restore();
});

/** The catalog's Vertex model with its baseUrl pointed at the local server (a models.json override). */
function vertexModel(): Model {
  return {
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    api: "google-vertex",
    provider: "google-vertex",
    baseUrl: server.url,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
    contextWindow: 1_048_576,
    maxTokens: 65_536,
  };
}

/** An ADC file as gcloud writes it for workforce identity, with the token endpoint on the local server. */
function useAdcFile(): void {
  const file = join(dir, "application_default_credentials.json");
  writeFileSync(
    file,
    JSON.stringify({
      type: "external_account_authorized_user",
      audience: "//iam.googleapis.com/locations/global/workforcePools/pool/providers/provider",
      client_id: "client-id",
      client_secret: "client-secret",
      refresh_token: "refresh-token-1",
      token_url: `${server.url}/token`,
    }),
  );
  process.env.GOOGLE_APPLICATION_CREDENTIALS = file;
  process.env.GOOGLE_CLOUD_PROJECT = "my-project";
  process.env.GOOGLE_CLOUD_LOCATION = "us-central1";
}

const context: Context = {
  systemPrompt: "Be brief.",
  messages: [{ role: "user", content: "What is 2+2? Then read src/main.ts.", timestamp: 1 }],
  tools: [{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) }],
};

async function drain(options: StreamOptions): Promise<{ events: AssistantMessageEvent[]; final: AssistantMessage }> {
  const stream = providers.find("google-vertex")!.call("stream", vertexModel(), context, options);
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, final: await stream.result() };
}

const TOKEN = { access_token: "ya29.local-access-token", expires_in: 3600, token_type: "Bearer" };

describe("Vertex AI", () => {
  it("refreshes ADC at the credentials file's token endpoint and streams thinking and text with the bearer token", async () => {
    useAdcFile();
    server.enqueue({ json: TOKEN }, { sse: thinkingThenText });
    const { events, final } = await drain({ apiKey: AMBIENT_CREDENTIALS, reasoning: "medium" });

    expect(final.errorMessage).toBeUndefined();
    expect(final.api).toBe("google-vertex");
    expect(final.stopReason).toBe("stop");
    expect(final.content).toEqual([
      { type: "thinking", thinking: "**Weighing the question**\n\nThe user asks for 2+2. Simple arithmetic." },
      { type: "text", text: "2 + 2 = 4.", textSignature: "Q2lRQjRjZXhUaG91Z2h0U2lnQQ==" },
    ]);
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "done",
    ]);
    expect(final.usage).toMatchObject({ input: 20, output: 46 });

    const [token, generate] = server.requests;
    expect(token!.path).toBe("/token");
    expect(String(token!.body)).toContain("refresh_token=refresh-token-1");
    expect(generate!.path).toBe("/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(generate!.headers.authorization).toBe("Bearer ya29.local-access-token");
    expect(generate!.headers["x-goog-api-key"]).toBeUndefined();
    expect(generate!.body.systemInstruction).toMatchObject({ parts: [{ text: "Be brief." }] });
    expect(generate!.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 8192 });
    expect(generate!.body.tools[0].functionDeclarations[0].name).toBe("read");
  });

  it("streams one function call with a Google Cloud API key instead of ADC", async () => {
    server.enqueue({ sse: oneToolCall });
    const { final } = await drain({ apiKey: "vertex-api-key" });
    expect(final.errorMessage).toBeUndefined();
    expect(final.stopReason).toBe("toolUse");
    expect(final.content.at(-1)).toMatchObject({
      type: "toolCall",
      name: "read",
      arguments: { path: "src/main.ts", limit: 20 },
    });
    const request = server.requests[0]!;
    expect(request.path).toBe("/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(request.headers["x-goog-api-key"]).toBe("vertex-api-key");
  });

  it("names the variable to set when ADC has no project", async () => {
    const { events, final } = await drain({ apiKey: AMBIENT_CREDENTIALS });
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(final.errorMessage).toBe(
      "Vertex AI needs a project: set GOOGLE_CLOUD_PROJECT (and GOOGLE_CLOUD_LOCATION), or GOOGLE_CLOUD_API_KEY",
    );
    expect(server.requests).toEqual([]);
  });
});
