/**
 * The pure rules behind the request bodies: which Chat Completions dialect a server speaks (detected
 * from provider name, then host; `model.compat` wins), and how foreign tool-call ids are rewritten for
 * each API so they are valid, deterministic and collision-free.
 */
import { describe, expect, it } from "vitest";
import { detectVendor, resolveCompletionsCompat } from "../../../plugins/ai/provider-openai/completions-compat.js";
import { completionsToolCallId, responsesToolCallId } from "../../../plugins/ai/provider-openai/tool-call-ids.js";

const at = (baseUrl: string, provider = "custom") => ({ provider, baseUrl });

describe("Chat Completions dialect detection", () => {
  it("recognises servers by provider name first, then by host", () => {
    expect(detectVendor(at("http://127.0.0.1:9999/v1", "openai"))).toBe("openai");
    expect(detectVendor(at("https://api.openai.com/v1"))).toBe("openai");
    expect(detectVendor(at("https://openrouter.ai/api/v1"))).toBe("openrouter");
    expect(detectVendor(at("https://api.groq.com/openai/v1"))).toBe("groq");
    expect(detectVendor(at("https://api.x.ai/v1"))).toBe("xai");
    expect(detectVendor(at("https://api.deepseek.com"))).toBe("deepseek");
    expect(detectVendor(at("https://api.mistral.ai/v1"))).toBe("mistral");
    expect(detectVendor(at("https://api.z.ai/api/paas/v4"))).toBe("zai");
    expect(detectVendor(at("http://localhost:11434/v1"))).toBe("local");
    expect(detectVendor(at("http://127.0.0.1:8080/v1"))).toBe("local");
    expect(detectVendor(at("http://gpu-box.local:8000/v1"))).toBe("local");
    expect(detectVendor(at("https://llm.example.com/v1"))).toBe("other");
    expect(detectVendor(at("not a url"))).toBe("other");
  });

  it("gives OpenAI developer role, store, strict, prompt caching and max_completion_tokens; compatible servers the safe subset", () => {
    expect(resolveCompletionsCompat(at("https://api.openai.com/v1"))).toMatchObject({
      supportsDeveloperRole: true,
      supportsStore: true,
      supportsStrictMode: true,
      sendsPromptCacheKey: true,
      maxTokensField: "max_completion_tokens",
      thinkingFormat: "openai",
    });
    expect(resolveCompletionsCompat(at("http://localhost:11434/v1"))).toMatchObject({
      supportsDeveloperRole: false,
      supportsStore: false,
      supportsStrictMode: false,
      sendsPromptCacheKey: false,
      maxTokensField: "max_tokens",
      supportsUsageInStreaming: true,
    });
    expect(resolveCompletionsCompat(at("https://api.deepseek.com"))).toMatchObject({
      thinkingFormat: "deepseek",
      replaysReasoningContent: true,
      maxTokensField: "max_tokens",
    });
    expect(resolveCompletionsCompat(at("https://api.x.ai/v1"))).toMatchObject({
      supportsReasoningEffort: false,
      maxTokensField: "max_completion_tokens",
    });
  });

  it("lets model.compat override any detected switch", () => {
    const compat = resolveCompletionsCompat({
      ...at("https://api.openai.com/v1"),
      compat: { supportsDeveloperRole: false, maxTokensField: "max_tokens", thinkingFormat: "qwen" },
    });
    expect(compat).toMatchObject({
      supportsDeveloperRole: false,
      maxTokensField: "max_tokens",
      thinkingFormat: "qwen",
      supportsStore: true,
    });
  });
});

describe("tool-call id rules", () => {
  it("Chat Completions: keeps valid ids, keeps the call half of a Responses pair, rewrites the rest to ≤ 40 safe chars", () => {
    expect(completionsToolCallId("call_abc123")).toBe("call_abc123");
    expect(completionsToolCallId("toolu_01A09q90qw90lq917835lq9")).toBe("toolu_01A09q90qw90lq917835lq9");
    expect(completionsToolCallId("call_Kx8v|fc_68a1c1b2d3e4")).toBe("call_Kx8v");
    const odd = ["a/b+c=d", "a_b_c_d", "x".repeat(80), `${"x".repeat(80)}y`];
    const rewritten = odd.map(completionsToolCallId);
    for (const id of rewritten) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(new Set(rewritten).size).toBe(odd.length);
    expect(completionsToolCallId("a/b+c=d")).toBe(rewritten[0]);
  });

  it("Responses: keeps valid pairs, gives any other id a safe call id and an fc_ item id", () => {
    expect(responsesToolCallId("call_1|fc_abc")).toBe("call_1|fc_abc");
    const fromAnthropic = responsesToolCallId("toolu_01A09q90qw90lq917835lq9");
    expect(fromAnthropic).toMatch(/^toolu_01A09q90qw90lq917835lq9\|fc_[a-z0-9]+$/);
    const odd = responsesToolCallId("call with spaces|item/with+slashes");
    expect(odd).toMatch(/^[a-zA-Z0-9_-]{1,64}\|fc_[a-z0-9]+$/);
    expect(responsesToolCallId("call with spaces|item/with+slashes")).toBe(odd);
    expect(responsesToolCallId("a|b")).not.toBe(responsesToolCallId("a|c"));
  });
});
