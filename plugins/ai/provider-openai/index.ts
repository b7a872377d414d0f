/**
 * provider-openai: OpenAI's two wire protocols as two slots of the ai/provider contract.
 * "openai-completions" speaks Chat Completions, which OpenAI and nearly every compatible server
 * (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, Groq, xAI, DeepSeek, Mistral) understand;
 * "openai-responses" speaks the Responses API with encrypted reasoning replay; "azure-openai-responses"
 * speaks it to Azure OpenAI deployments (and Azure's Chat Completions models use the Azure client too).
 * The `openai` SDK is loaded only when a request is made.
 */
import { AiProviderContract } from "pi-host";
import { definePlugin } from "pi-host";
import { AZURE_RESPONSES_API } from "./azure-config.js";
import { azureResponsesProvider } from "./azure.js";
import { openAICompletionsProvider } from "./completions.js";
import { openAIResponsesProvider } from "./responses.js";

export default definePlugin({
  id: "provider-openai",
  version: "1.0.0",
  description: "OpenAI Chat Completions (and compatible servers), the OpenAI Responses API and Azure OpenAI",
  provides: [AiProviderContract],
  setup(ctx) {
    ctx.provide(AiProviderContract, openAICompletionsProvider, { key: "openai-completions" });
    ctx.provide(AiProviderContract, openAIResponsesProvider, { key: "openai-responses" });
    ctx.provide(AiProviderContract, azureResponsesProvider, { key: AZURE_RESPONSES_API });
  },
});
