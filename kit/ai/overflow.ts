/**
 * Context overflow detection. Compaction must know when a request failed because the conversation no
 * longer fits the model, so it can compact and retry once. Providers say so in their own words, and a
 * few say nothing at all, so this checks both the error text and the reported usage. Pure, no I/O.
 */
import type { AssistantMessage } from "../../contracts/ai/types.js";

/**
 * How each provider phrases "the input is larger than the context window". One pattern per phrasing,
 * with the provider that uses it; generic fallbacks last.
 */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i, // Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
  /request_too_large/i, // Anthropic: HTTP 413, request larger than the byte limit
  /input is too long for requested model/i, // Amazon Bedrock
  /exceeds the context window/i, // OpenAI Chat Completions and Responses
  /input token count.*exceeds the maximum/i, // Google Gemini: "The input token count (N) exceeds the maximum ..."
  /maximum prompt length is \d+/i, // xAI Grok
  /reduce the length of the messages/i, // Groq
  /maximum context length is \d+ tokens/i, // OpenRouter, vLLM and other OpenAI-compatible servers
  /exceeds the limit of \d+/i, // GitHub Copilot: "prompt token count of N exceeds the limit of M"
  /exceeds the available context size/i, // llama.cpp server
  /greater than the context length/i, // LM Studio
  /context window exceeds limit/i, // MiniMax
  /exceeded model token limit/i, // Kimi For Coding
  /too large for model with \d+ maximum context length/i, // Mistral
  /model_context_window_exceeded/i, // z.ai finish reason surfaced as an error
  /prompt too long; exceeded (?:max )?context length/i, // Ollama
  /context[_ ]length[_ ]exceeded/i, // generic
  /too many tokens/i, // generic
  /token limit exceeded/i, // generic
  /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i, // Cerebras: 400/413 without a body
];

/**
 * Errors that can contain overflow-like words but are not overflows (rate limits, throttling). Checked
 * first, so "Too many tokens, please wait" from a throttled API does not trigger a compaction.
 */
export const NOT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /throttl/i,
  /^service unavailable:/i,
  /rate limit/i,
  /too many requests/i,
];

/**
 * Whether `message` shows that the request did not fit the model's context. Three cases:
 * an error whose text matches a provider's overflow phrasing; a "silent" overflow, where the provider
 * answered normally but reports more input tokens than `contextWindow`; and a provider that cut the
 * input to fill the window and then stopped for length without writing anything.
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
  const text = message.errorMessage;
  if (message.stopReason === "error" && text) {
    if (!NOT_OVERFLOW_PATTERNS.some((p) => p.test(text)) && OVERFLOW_PATTERNS.some((p) => p.test(text))) return true;
  }
  if (contextWindow === undefined || contextWindow <= 0) return false;
  const input = message.usage.input + message.usage.cacheRead;
  if (message.stopReason === "stop" && input > contextWindow) return true;
  return message.stopReason === "length" && message.usage.output === 0 && input >= contextWindow * 0.99;
}
