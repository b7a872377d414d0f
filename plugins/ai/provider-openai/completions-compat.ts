/**
 * Which dialect of Chat Completions a server speaks. OpenAI's own API and the many compatible servers
 * (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, Groq, xAI, DeepSeek, Mistral, ...) disagree on small
 * things: the system role's name, the max-tokens field, how reasoning is requested. Sensible defaults
 * are detected from the provider name, then the host of `baseUrl`; `model.compat` overrides any of them.
 */
import type { Model, OpenAICompletionsCompat } from "pi-host";

/** Every switch decided, so request building never has to guess. */
export interface ResolvedCompletionsCompat {
  supportsStore: boolean;
  supportsDeveloperRole: boolean;
  supportsReasoningEffort: boolean;
  supportsUsageInStreaming: boolean;
  maxTokensField: "max_completion_tokens" | "max_tokens";
  requiresToolResultName: boolean;
  requiresAssistantAfterToolResult: boolean;
  requiresThinkingAsText: boolean;
  thinkingFormat: NonNullable<OpenAICompletionsCompat["thinkingFormat"]>;
  supportsStrictMode: boolean;
  /** Send `prompt_cache_key` (session-keyed prompt caching); only OpenAI's own API knows it. */
  sendsPromptCacheKey: boolean;
  /** Replayed assistant turns carry `reasoning_content` (DeepSeek's thinking mode requires the field). */
  replaysReasoningContent: boolean;
}

/** The server families whose defaults differ. */
export type Vendor =
  | "openai"
  | "openrouter"
  | "groq"
  | "xai"
  | "deepseek"
  | "mistral"
  | "zai"
  | "qwen"
  | "cerebras"
  | "local"
  | "other";

const VENDOR_BY_PROVIDER: Record<string, Vendor> = {
  openai: "openai",
  openrouter: "openrouter",
  groq: "groq",
  xai: "xai",
  deepseek: "deepseek",
  mistral: "mistral",
  zai: "zai",
  qwen: "qwen",
  dashscope: "qwen",
  cerebras: "cerebras",
  ollama: "local",
  vllm: "local",
  "llama.cpp": "local",
  llamacpp: "local",
  lmstudio: "local",
  "lm-studio": "local",
};

const VENDOR_BY_HOST: Array<[RegExp, Vendor]> = [
  [/(^|\.)api\.openai\.com$/, "openai"],
  [/(^|\.)openrouter\.ai$/, "openrouter"],
  [/(^|\.)groq\.com$/, "groq"],
  [/(^|\.)x\.ai$/, "xai"],
  [/(^|\.)deepseek\.com$/, "deepseek"],
  [/(^|\.)mistral\.ai$/, "mistral"],
  [/(^|\.)z\.ai$|(^|\.)bigmodel\.cn$/, "zai"],
  [/(^|\.)dashscope(-intl)?\.aliyuncs\.com$/, "qwen"],
  [/(^|\.)cerebras\.ai$/, "cerebras"],
  [/^(localhost|127(\.\d+){3}|0\.0\.0\.0|\[::1\]|10(\.\d+){3}|192\.168(\.\d+){2}|[^.]+\.local)$/, "local"],
];

/** The server family of `model`: its provider name first (explicitly configured), then its host. */
export function detectVendor(model: Pick<Model, "provider" | "baseUrl">): Vendor {
  const byName = VENDOR_BY_PROVIDER[model.provider.toLowerCase()];
  if (byName !== undefined) return byName;
  let host = "";
  try {
    host = new URL(model.baseUrl).hostname.toLowerCase();
  } catch {
    return "other";
  }
  for (const [pattern, vendor] of VENDOR_BY_HOST) if (pattern.test(host)) return vendor;
  return "other";
}

/**
 * Defaults per family. Only OpenAI gets `developer`, `store`, `strict` and `prompt_cache_key`: every
 * compatible server accepts `system`, and fields a server does not know are the usual cause of a 400.
 * `max_tokens` is the field every compatible server understands; OpenAI, Groq, xAI and Cerebras
 * document `max_completion_tokens` instead.
 */
function defaultsFor(vendor: Vendor): ResolvedCompletionsCompat {
  const isOpenAI = vendor === "openai";
  return {
    supportsStore: isOpenAI,
    supportsDeveloperRole: isOpenAI,
    supportsReasoningEffort: vendor !== "xai" && vendor !== "zai" && vendor !== "mistral",
    supportsUsageInStreaming: true,
    maxTokensField:
      isOpenAI || vendor === "groq" || vendor === "xai" || vendor === "cerebras"
        ? "max_completion_tokens"
        : "max_tokens",
    requiresToolResultName: false,
    requiresAssistantAfterToolResult: false,
    requiresThinkingAsText: false,
    thinkingFormat:
      vendor === "openrouter"
        ? "openrouter"
        : vendor === "deepseek"
          ? "deepseek"
          : vendor === "zai"
            ? "zai"
            : vendor === "qwen"
              ? "qwen"
              : "openai",
    supportsStrictMode: isOpenAI,
    sendsPromptCacheKey: isOpenAI,
    replaysReasoningContent: vendor === "deepseek",
  };
}

/** The switches for `model`: detected defaults, overridden field by field by `model.compat`. */
export function resolveCompletionsCompat(
  model: Pick<Model, "provider" | "baseUrl" | "compat">,
): ResolvedCompletionsCompat {
  const detected = defaultsFor(detectVendor(model));
  const set = model.compat ?? {};
  return {
    supportsStore: set.supportsStore ?? detected.supportsStore,
    supportsDeveloperRole: set.supportsDeveloperRole ?? detected.supportsDeveloperRole,
    supportsReasoningEffort: set.supportsReasoningEffort ?? detected.supportsReasoningEffort,
    supportsUsageInStreaming: set.supportsUsageInStreaming ?? detected.supportsUsageInStreaming,
    maxTokensField: set.maxTokensField ?? detected.maxTokensField,
    requiresToolResultName: set.requiresToolResultName ?? detected.requiresToolResultName,
    requiresAssistantAfterToolResult: set.requiresAssistantAfterToolResult ?? detected.requiresAssistantAfterToolResult,
    requiresThinkingAsText: set.requiresThinkingAsText ?? detected.requiresThinkingAsText,
    thinkingFormat: set.thinkingFormat ?? detected.thinkingFormat,
    supportsStrictMode: set.supportsStrictMode ?? detected.supportsStrictMode,
    sendsPromptCacheKey: detected.sendsPromptCacheKey,
    replaysReasoningContent: detected.replaysReasoningContent,
  };
}
