import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage } from "../../../hosts/api.js";
import { isContextOverflow, OVERFLOW_PATTERNS } from "../../../kit/ai/overflow.js";

function failed(errorMessage: string): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "x",
    provider: "x",
    model: "m",
    usage: emptyUsage(),
    stopReason: "error",
    errorMessage,
    timestamp: 0,
  };
}
function answered(
  stopReason: AssistantMessage["stopReason"],
  input: number,
  output: number,
  cacheRead = 0,
): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "x",
    provider: "x",
    model: "m",
    usage: { ...emptyUsage(), input, output, cacheRead },
    stopReason,
    timestamp: 0,
  };
}

describe("isContextOverflow", () => {
  const providerMessages: Record<string, string> = {
    anthropic: "prompt is too long: 213462 tokens > 200000 maximum",
    "anthropic 413": '413 {"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}',
    bedrock: "ValidationException: Input is too long for requested model.",
    openai: "Your input exceeds the context window of this model. Please adjust your input and try again.",
    google: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).",
    xai: "This model's maximum prompt length is 131072 but the request contains 537812 tokens.",
    groq: "Please reduce the length of the messages or completion.",
    openrouter: "This endpoint's maximum context length is 128000 tokens. However, you requested about 200000 tokens",
    copilot: "prompt token count of 150000 exceeds the limit of 128000",
    "llama.cpp": "the request exceeds the available context size, try increasing it",
    "lm studio": "tokens to keep from the initial prompt is greater than the context length",
    minimax: "invalid params, context window exceeds limit",
    kimi: "Your request exceeded model token limit: 262144 (requested: 300000)",
    mistral: "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
    ollama: "prompt too long; exceeded max context length by 1200 tokens",
    cerebras: "413 status code (no body)",
    generic: "context_length_exceeded",
  };
  for (const [provider, text] of Object.entries(providerMessages)) {
    it(`recognises ${provider}'s phrasing`, () => {
      expect(isContextOverflow(failed(text))).toBe(true);
    });
  }

  it("every pattern is exercised by one of the phrasings above", () => {
    const texts = Object.values(providerMessages).concat([
      "model_context_window_exceeded",
      "too many tokens in request",
      "token limit exceeded",
      "400 (no body)",
    ]);
    for (const pattern of OVERFLOW_PATTERNS)
      expect(
        texts.some((t) => pattern.test(t)),
        String(pattern),
      ).toBe(true);
  });

  it("is not fooled by rate limits, throttling or other errors", () => {
    expect(isContextOverflow(failed("ThrottlingException: Too many tokens, please wait before trying again."))).toBe(
      false,
    );
    expect(isContextOverflow(failed("Throttling error: Too many tokens, please wait"))).toBe(false);
    expect(isContextOverflow(failed("429 Too Many Requests: rate limit reached for tokens"))).toBe(false);
    expect(isContextOverflow(failed("401 invalid x-api-key"))).toBe(false);
    expect(isContextOverflow(failed("overloaded_error"))).toBe(false);
    // The text only counts on an errored message.
    expect(isContextOverflow({ ...failed("prompt is too long"), stopReason: "stop" })).toBe(false);
  });

  it("detects a silent overflow: a normal answer reporting more input than the window", () => {
    expect(isContextOverflow(answered("stop", 150_000, 100, 60_000), 200_000)).toBe(true);
    expect(isContextOverflow(answered("stop", 150_000, 100, 10_000), 200_000)).toBe(false);
    expect(isContextOverflow(answered("stop", 250_000, 100))).toBe(false); // no window given, no guess
    expect(isContextOverflow(answered("toolUse", 250_000, 100), 200_000)).toBe(false);
  });

  it("detects input cut to fill the window, stopped for length with nothing written", () => {
    expect(isContextOverflow(answered("length", 199_000, 0), 200_000)).toBe(true);
    expect(isContextOverflow(answered("length", 199_000, 10), 200_000)).toBe(false);
    expect(isContextOverflow(answered("length", 100_000, 0), 200_000)).toBe(false);
  });
});
