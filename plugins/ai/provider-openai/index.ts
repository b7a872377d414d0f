/**
 * provider-openai: OpenAI's two wire protocols as two slots of the ai/provider contract.
 * "openai-completions" speaks Chat Completions, which OpenAI and nearly every compatible server
 * (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, Groq, xAI, DeepSeek, Mistral) understand;
 * "openai-responses" speaks the Responses API with encrypted reasoning replay. The `openai` SDK is
 * loaded only when a request is made.
 */
import { AiProviderContract } from "pi-host";
import { definePlugin } from "pi-host";
import { openAICompletionsProvider } from "./completions.js";
import { openAIResponsesProvider } from "./responses.js";

export default definePlugin({
  id: "provider-openai",
  version: "1.0.0",
  description: "OpenAI Chat Completions (and compatible servers) and the OpenAI Responses API",
  provides: [AiProviderContract],
  setup(ctx) {
    ctx.provide(AiProviderContract, openAICompletionsProvider, { key: "openai-completions" });
    ctx.provide(AiProviderContract, openAIResponsesProvider, { key: "openai-responses" });
  },
});
