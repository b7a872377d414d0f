/**
 * A Sign in with ChatGPT access token sent straight to api.openai.com is refused when the Responses
 * request sets max_output_tokens, temperature or a prompt-cache retention; pi 1.6 leaves them out for
 * such a token (a key that does not start with `sk-`) and keeps them for API keys and other servers.
 */
import { describe, expect, it } from "vitest";
import type { Context, Model } from "../../../contracts/ai/index.js";
import { buildResponsesBody, isChatGPTSignIn } from "../../../plugins/ai/provider-openai/responses-request.js";

const openai: Model = {
  id: "gpt-5",
  name: "GPT-5",
  api: "openai-responses",
  provider: "openai",
  baseUrl: "https://api.openai.com/v1",
  reasoning: true,
  input: ["text"],
  cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 400_000,
  maxTokens: 128_000,
};
const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const options = { maxTokens: 1000, temperature: 0.2, sessionId: "s1", cacheRetention: "long" as const };

describe("Sign in with ChatGPT on the Responses API", () => {
  it("tells a ChatGPT token from an API key, only for OpenAI's own endpoint", () => {
    expect(isChatGPTSignIn(openai, "eyJhbGciOi.chatgpt.token")).toBe(true);
    expect(isChatGPTSignIn(openai, "sk-proj-123")).toBe(false);
    expect(isChatGPTSignIn(openai, undefined)).toBe(false);
    expect(isChatGPTSignIn({ ...openai, baseUrl: "http://127.0.0.1:9/v1" }, "token")).toBe(false);
    expect(isChatGPTSignIn({ ...openai, provider: "meta" }, "token")).toBe(false);
  });

  it("leaves out max_output_tokens, temperature and prompt_cache_retention for a ChatGPT token", () => {
    const signedIn = buildResponsesBody(openai, context, { ...options, apiKey: "chatgpt-access" });
    expect(signedIn).not.toHaveProperty("max_output_tokens");
    expect(signedIn).not.toHaveProperty("temperature");
    expect(signedIn).not.toHaveProperty("prompt_cache_retention");
    expect(signedIn.prompt_cache_key).toBe("s1");

    const keyed = buildResponsesBody(openai, context, { ...options, apiKey: "sk-live" });
    expect(keyed).toMatchObject({ max_output_tokens: 1000, temperature: 0.2, prompt_cache_retention: "24h" });
  });
});
