/**
 * The built-in model catalog: current Anthropic, OpenAI and Google models as plain data, so a user can
 * pick a model without writing a models.json. Facts (ids, prices in US dollars per million tokens,
 * context windows, output limits) follow pi 0.73.1's catalog, so model references written for pi work
 * here. Older families (Claude 3.x, GPT-4o, Gemini 1.5/2.0) are left out; add them in models.json.
 */
import type { Model } from "pi-host";

const ANTHROPIC = { provider: "anthropic", api: "anthropic-messages", baseUrl: "https://api.anthropic.com" } as const;
const OPENAI = { provider: "openai", api: "openai-responses", baseUrl: "https://api.openai.com/v1" } as const;
const GOOGLE = { provider: "google", api: "google-generative-ai", baseUrl: "https://generativelanguage.googleapis.com/v1beta" } as const;

/** Every built-in model, grouped by provider, newest first within a family. */
export const BUILTIN_MODELS: readonly Model[] = [
  // anthropic
  { ...ANTHROPIC, id: "claude-opus-4-7", name: "Claude Opus 4.7", reasoning: true, input: ["text", "image"], cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, contextWindow: 1000000, maxTokens: 128000 },
  { ...ANTHROPIC, id: "claude-opus-4-6", name: "Claude Opus 4.6", reasoning: true, input: ["text", "image"], cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, contextWindow: 1000000, maxTokens: 128000 },
  { ...ANTHROPIC, id: "claude-opus-4-5", name: "Claude Opus 4.5 (latest)", reasoning: true, input: ["text", "image"], cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, contextWindow: 200000, maxTokens: 64000 },
  { ...ANTHROPIC, id: "claude-opus-4-5-20251101", name: "Claude Opus 4.5", reasoning: true, input: ["text", "image"], cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, contextWindow: 200000, maxTokens: 64000 },
  { ...ANTHROPIC, id: "claude-opus-4-1", name: "Claude Opus 4.1 (latest)", reasoning: true, input: ["text", "image"], cost: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, contextWindow: 200000, maxTokens: 32000 },
  { ...ANTHROPIC, id: "claude-opus-4-1-20250805", name: "Claude Opus 4.1", reasoning: true, input: ["text", "image"], cost: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, contextWindow: 200000, maxTokens: 32000 },
  { ...ANTHROPIC, id: "claude-opus-4-0", name: "Claude Opus 4 (latest)", reasoning: true, input: ["text", "image"], cost: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, contextWindow: 200000, maxTokens: 32000 },
  { ...ANTHROPIC, id: "claude-opus-4-20250514", name: "Claude Opus 4", reasoning: true, input: ["text", "image"], cost: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, contextWindow: 200000, maxTokens: 32000 },
  { ...ANTHROPIC, id: "claude-sonnet-4-6", name: "Claude Sonnet 4.6", reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 1000000, maxTokens: 64000 },
  { ...ANTHROPIC, id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5 (latest)", reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200000, maxTokens: 64000 },
  { ...ANTHROPIC, id: "claude-sonnet-4-5-20250929", name: "Claude Sonnet 4.5", reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200000, maxTokens: 64000 },
  { ...ANTHROPIC, id: "claude-sonnet-4-0", name: "Claude Sonnet 4 (latest)", reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200000, maxTokens: 64000 },
  { ...ANTHROPIC, id: "claude-sonnet-4-20250514", name: "Claude Sonnet 4", reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200000, maxTokens: 64000 },
  { ...ANTHROPIC, id: "claude-haiku-4-5", name: "Claude Haiku 4.5 (latest)", reasoning: true, input: ["text", "image"], cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, contextWindow: 200000, maxTokens: 64000 },
  { ...ANTHROPIC, id: "claude-haiku-4-5-20251001", name: "Claude Haiku 4.5", reasoning: true, input: ["text", "image"], cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, contextWindow: 200000, maxTokens: 64000 },
  // openai
  { ...OPENAI, id: "gpt-5.5", name: "GPT-5.5", reasoning: true, input: ["text", "image"], cost: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 }, contextWindow: 272000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.5-pro", name: "GPT-5.5 Pro", reasoning: true, input: ["text", "image"], cost: { input: 30, output: 180, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1050000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.4", name: "GPT-5.4", reasoning: true, input: ["text", "image"], cost: { input: 2.5, output: 15, cacheRead: 0.25, cacheWrite: 0 }, contextWindow: 272000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.4-pro", name: "GPT-5.4 Pro", reasoning: true, input: ["text", "image"], cost: { input: 30, output: 180, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1050000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.4-mini", name: "GPT-5.4 mini", reasoning: true, input: ["text", "image"], cost: { input: 0.75, output: 4.5, cacheRead: 0.075, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.4-nano", name: "GPT-5.4 nano", reasoning: true, input: ["text", "image"], cost: { input: 0.2, output: 1.25, cacheRead: 0.02, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.3-codex", name: "GPT-5.3 Codex", reasoning: true, input: ["text", "image"], cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.3-codex-spark", name: "GPT-5.3 Codex Spark", reasoning: true, input: ["text", "image"], cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 32000 },
  { ...OPENAI, id: "gpt-5.3-chat-latest", name: "GPT-5.3 Chat (latest)", reasoning: false, input: ["text", "image"], cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 16384 },
  { ...OPENAI, id: "gpt-5.2", name: "GPT-5.2", reasoning: true, input: ["text", "image"], cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.2-pro", name: "GPT-5.2 Pro", reasoning: true, input: ["text", "image"], cost: { input: 21, output: 168, cacheRead: 0, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.2-codex", name: "GPT-5.2 Codex", reasoning: true, input: ["text", "image"], cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.2-chat-latest", name: "GPT-5.2 Chat", reasoning: true, input: ["text", "image"], cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 16384 },
  { ...OPENAI, id: "gpt-5.1", name: "GPT-5.1", reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.13, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.1-codex", name: "GPT-5.1 Codex", reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.1-codex-max", name: "GPT-5.1 Codex Max", reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.1-codex-mini", name: "GPT-5.1 Codex mini", reasoning: true, input: ["text", "image"], cost: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5.1-chat-latest", name: "GPT-5.1 Chat", reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 16384 },
  { ...OPENAI, id: "gpt-5", name: "GPT-5", reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5-pro", name: "GPT-5 Pro", reasoning: true, input: ["text", "image"], cost: { input: 15, output: 120, cacheRead: 0, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 272000 },
  { ...OPENAI, id: "gpt-5-codex", name: "GPT-5-Codex", reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5-mini", name: "GPT-5 Mini", reasoning: true, input: ["text", "image"], cost: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5-nano", name: "GPT-5 Nano", reasoning: true, input: ["text", "image"], cost: { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0 }, contextWindow: 400000, maxTokens: 128000 },
  { ...OPENAI, id: "gpt-5-chat-latest", name: "GPT-5 Chat Latest", reasoning: false, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 16384 },
  { ...OPENAI, id: "gpt-4.1", name: "GPT-4.1", reasoning: false, input: ["text", "image"], cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 }, contextWindow: 1047576, maxTokens: 32768 },
  { ...OPENAI, id: "gpt-4.1-mini", name: "GPT-4.1 mini", reasoning: false, input: ["text", "image"], cost: { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 }, contextWindow: 1047576, maxTokens: 32768 },
  { ...OPENAI, id: "gpt-4.1-nano", name: "GPT-4.1 nano", reasoning: false, input: ["text", "image"], cost: { input: 0.1, output: 0.4, cacheRead: 0.03, cacheWrite: 0 }, contextWindow: 1047576, maxTokens: 32768 },
  { ...OPENAI, id: "o4-mini", name: "o4-mini", reasoning: true, input: ["text", "image"], cost: { input: 1.1, output: 4.4, cacheRead: 0.28, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 100000 },
  { ...OPENAI, id: "o3", name: "o3", reasoning: true, input: ["text", "image"], cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 100000 },
  { ...OPENAI, id: "o3-pro", name: "o3-pro", reasoning: true, input: ["text", "image"], cost: { input: 20, output: 80, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 100000 },
  { ...OPENAI, id: "o3-mini", name: "o3-mini", reasoning: true, input: ["text"], cost: { input: 1.1, output: 4.4, cacheRead: 0.55, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 100000 },
  { ...OPENAI, id: "o1", name: "o1", reasoning: true, input: ["text", "image"], cost: { input: 15, output: 60, cacheRead: 7.5, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 100000 },
  { ...OPENAI, id: "o1-pro", name: "o1-pro", reasoning: true, input: ["text", "image"], cost: { input: 150, output: 600, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200000, maxTokens: 100000 },
  // google
  { ...GOOGLE, id: "gemini-3.1-pro-preview", name: "Gemini 3.1 Pro Preview", reasoning: true, input: ["text", "image"], cost: { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { ...GOOGLE, id: "gemini-3.1-pro-preview-customtools", name: "Gemini 3.1 Pro Preview Custom Tools", reasoning: true, input: ["text", "image"], cost: { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { ...GOOGLE, id: "gemini-3.1-flash-lite-preview", name: "Gemini 3.1 Flash Lite Preview", reasoning: true, input: ["text", "image"], cost: { input: 0.25, output: 1.5, cacheRead: 0.025, cacheWrite: 1 }, contextWindow: 1048576, maxTokens: 65536 },
  { ...GOOGLE, id: "gemini-3-pro-preview", name: "Gemini 3 Pro Preview", reasoning: true, input: ["text", "image"], cost: { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0 }, contextWindow: 1000000, maxTokens: 64000 },
  { ...GOOGLE, id: "gemini-3-flash-preview", name: "Gemini 3 Flash Preview", reasoning: true, input: ["text", "image"], cost: { input: 0.5, output: 3, cacheRead: 0.05, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { ...GOOGLE, id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", reasoning: true, input: ["text", "image"], cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { ...GOOGLE, id: "gemini-2.5-flash", name: "Gemini 2.5 Flash", reasoning: true, input: ["text", "image"], cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { ...GOOGLE, id: "gemini-2.5-flash-lite", name: "Gemini 2.5 Flash Lite", reasoning: true, input: ["text", "image"], cost: { input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { ...GOOGLE, id: "gemini-flash-latest", name: "Gemini Flash Latest", reasoning: true, input: ["text", "image"], cost: { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
  { ...GOOGLE, id: "gemini-flash-lite-latest", name: "Gemini Flash-Lite Latest", reasoning: true, input: ["text", "image"], cost: { input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: 0 }, contextWindow: 1048576, maxTokens: 65536 },
];
