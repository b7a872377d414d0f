/**
 * Amazon Bedrock, Azure OpenAI and Google Vertex AI end to end through the built `pi -p`, each against
 * a local server speaking its real wire format, configured only as a user would: environment variables
 * (and, for Bedrock and Vertex, a models.json baseUrl that stands in for the cloud endpoint). Each run
 * prints the answer, authenticates as the cloud expects (SigV4, api-key, an ADC bearer token) and loads
 * its own SDK and no other.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { textStream as responsesText } from "../fixtures/sse/openai-responses/text.js";
import { plainText } from "../fixtures/sse/google-generative-ai/responses.js";
import { bedrockEvent } from "../support/aws-event-stream.js";
import { BedrockServer } from "../support/bedrock-server.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, type AgentHome } from "./agent-home.js";
import { runPiRecordingModules, sdksIn } from "./record-modules.js";

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
});

function modelsJson(providers: Record<string, unknown>): void {
  writeFileSync(join(user.agent, "models.json"), JSON.stringify({ providers }));
}

describe("pi -p with the cloud providers", () => {
  let bedrock: BedrockServer;
  let mock: MockLlmServer;
  beforeEach(async () => {
    bedrock = await new BedrockServer().start();
    mock = await new MockLlmServer().start();
  });
  afterEach(async () => {
    await bedrock.close();
    await mock.close();
  });

  it("amazon-bedrock: AWS keys and region from the environment, SigV4-signed, the event stream printed", async () => {
    modelsJson({ "amazon-bedrock": { baseUrl: bedrock.url } });
    bedrock.reply({
      messages: [
        bedrockEvent("messageStart", { role: "assistant" }),
        bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hello from " } }),
        bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Bedrock!" } }),
        bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
        bedrockEvent("messageStop", { stopReason: "end_turn" }),
        bedrockEvent("metadata", { usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 }, metrics: {} }),
      ],
    });
    const model = "anthropic.claude-sonnet-4-20250514-v1:0";
    const { run, modules } = await runPiRecordingModules(
      ["--model", `amazon-bedrock/${model}`, "-p", "--no-session", "hi"],
      user.project,
      {
        ...user.env,
        AWS_ACCESS_KEY_ID: "AKIDE2E",
        AWS_SECRET_ACCESS_KEY: "e2e-secret",
        AWS_REGION: "us-west-2",
        AWS_CONFIG_FILE: join(user.home, "no-aws-config"),
        AWS_SHARED_CREDENTIALS_FILE: join(user.home, "no-aws-credentials"),
      },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello from Bedrock!\n");
    expect(bedrock.requests).toHaveLength(1);
    expect(bedrock.requests[0]!.path).toBe(`/model/${encodeURIComponent(model)}/converse-stream`);
    expect(String(bedrock.requests[0]!.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDE2E\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=\S+, Signature=[0-9a-f]{64}$/,
    );
    expect(bedrock.requests[0]!.body.messages).toEqual([
      { role: "user", content: [{ text: "hi" }, { cachePoint: { type: "default" } }] },
    ]);
    expect(sdksIn(modules)).toEqual(["@aws-sdk/client-bedrock-runtime"]);
  });

  it("azure: AZURE_OPENAI_API_KEY and AZURE_OPENAI_BASE_URL only, api-key header and api-version query", async () => {
    mock.enqueue({ sse: responsesText });
    const { run, modules } = await runPiRecordingModules(
      ["--model", "azure/gpt-5-mini", "-p", "--no-session", "hi"],
      user.project,
      { ...user.env, AZURE_OPENAI_API_KEY: "azure-e2e-key", AZURE_OPENAI_BASE_URL: `${mock.url}/openai/v1` },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello! How can I help you today?\n");
    expect(mock.requests.map((r) => r.path)).toEqual(["/openai/v1/responses?api-version=v1"]);
    expect(mock.requests[0]!.headers["api-key"]).toBe("azure-e2e-key");
    expect(mock.requests[0]!.body.model).toBe("gpt-5-mini");
    expect(sdksIn(modules)).toEqual(["openai"]);
  });

  it("google-vertex: ADC from GOOGLE_APPLICATION_CREDENTIALS with project and location, a bearer token", async () => {
    const credentials = join(user.home, "adc.json");
    writeFileSync(
      credentials,
      JSON.stringify({
        type: "external_account_authorized_user",
        audience: "//iam.googleapis.com/locations/global/workforcePools/pool/providers/provider",
        client_id: "client-id",
        client_secret: "client-secret",
        refresh_token: "refresh-e2e",
        token_url: `${mock.url}/token`,
      }),
    );
    modelsJson({ "google-vertex": { baseUrl: mock.url } });
    mock.enqueue({ json: { access_token: "ya29.e2e", expires_in: 3600, token_type: "Bearer" } }, { sse: plainText });
    const { run, modules } = await runPiRecordingModules(
      ["--model", "google-vertex/gemini-2.5-flash", "-p", "--no-session", "hi"],
      user.project,
      {
        ...user.env,
        GOOGLE_APPLICATION_CREDENTIALS: credentials,
        GOOGLE_CLOUD_PROJECT: "e2e-project",
        GOOGLE_CLOUD_LOCATION: "europe-west4",
      },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello there!\n");
    expect(mock.requests.map((r) => r.path)).toEqual([
      "/token",
      "/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    ]);
    expect(mock.requests[1]!.headers.authorization).toBe("Bearer ya29.e2e");
    expect(sdksIn(modules)).toEqual(["@google/genai"]);
  });

  it("amazon-bedrock without any AWS credentials: one line naming what to set, nothing sent", async () => {
    const run = await user.pi(["--model", "amazon-bedrock/amazon.nova-pro-v1:0", "-p", "--no-session", "hi"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr.trim()).toBe(
      `no credentials for "amazon-bedrock": set AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) with AWS_REGION, or set AWS_BEARER_TOKEN_BEDROCK, add {"amazon-bedrock": {"type": "api_key", "key": "..."}} to ${join(user.agent, "auth.json")}, or pass --api-key`,
    );
    expect(bedrock.requests).toEqual([]);
  });
});
