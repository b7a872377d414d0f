/**
 * The providers pi 1.6.0 ships (`@earendil-works/pi-ai` 1.6.0's built-in provider list), each with the
 * environment variables it reads a key from and its default model (pi-coding-agent's
 * `defaultModelPerProvider`). The catalog tests check the generated catalog against these facts.
 */
export const PI16_PROVIDER_FACTS: Record<string, { env: string[]; defaultModel?: string }> = {
  "amazon-bedrock": { env: ["AWS_BEARER_TOKEN_BEDROCK"], defaultModel: "us.anthropic.claude-opus-5-5" },
  "ant-ling": { env: ["ANT_LING_API_KEY"], defaultModel: "Ring-2.6-1T" },
  anthropic: { env: ["ANTHROPIC_API_KEY"], defaultModel: "claude-opus-5-5" },
  azure: { env: ["AZURE_OPENAI_API_KEY"], defaultModel: "gpt-6.2-sol" },
  baseten: { env: ["BASETEN_API_KEY"], defaultModel: "zai-org/GLM-5.3" },
  cerebras: { env: ["CEREBRAS_API_KEY"], defaultModel: "gpt-oss-120b" },
  "cloudflare-ai-gateway": {
    env: ["CLOUDFLARE_API_KEY"],
    defaultModel: "workers-ai/@cf/moonshotai/kimi-k2.7-code",
  },
  "cloudflare-workers-ai": { env: ["CLOUDFLARE_API_KEY"], defaultModel: "@cf/moonshotai/kimi-k2.7-code" },
  deepseek: { env: ["DEEPSEEK_API_KEY"], defaultModel: "deepseek-v4-pro" },
  fireworks: { env: ["FIREWORKS_API_KEY"], defaultModel: "accounts/fireworks/models/kimi-k3" },
  "github-copilot": { env: ["COPILOT_GITHUB_TOKEN"], defaultModel: "gpt-6.1-sol" },
  google: { env: ["GEMINI_API_KEY"], defaultModel: "gemini-4-argon" },
  "google-vertex": { env: ["GOOGLE_CLOUD_API_KEY"], defaultModel: "gemini-4-argon" },
  groq: { env: ["GROQ_API_KEY"], defaultModel: "openai/gpt-oss-120b" },
  huggingface: { env: ["HF_TOKEN"], defaultModel: "moonshotai/Kimi-K2.7-Code" },
  "kimi-coding": { env: ["KIMI_API_KEY"], defaultModel: "kimi-for-coding" },
  meta: { env: ["META_API_KEY"], defaultModel: "muse-spark-1.3" },
  minimax: { env: ["MINIMAX_API_KEY"], defaultModel: "MiniMax-M3" },
  "minimax-cn": { env: ["MINIMAX_CN_API_KEY"], defaultModel: "MiniMax-M3" },
  mistral: { env: ["MISTRAL_API_KEY"], defaultModel: "devstral-medium-latest" },
  moonshotai: { env: ["MOONSHOT_API_KEY"], defaultModel: "kimi-k2.7-code" },
  "moonshotai-cn": { env: ["MOONSHOT_API_KEY"], defaultModel: "kimi-k2.7-code" },
  nvidia: { env: ["NVIDIA_API_KEY"], defaultModel: "nvidia/nemotron-3.5-super-vl-120b-a12b" },
  openai: { env: ["OPENAI_API_KEY"], defaultModel: "gpt-6.2-sol" },
  // Sign in with ChatGPT only: no key variable.
  "openai-codex": { env: [], defaultModel: "gpt-6.2-sol" },
  opencode: { env: ["OPENCODE_API_KEY"], defaultModel: "kimi-k2.7-code" },
  "opencode-go": { env: ["OPENCODE_API_KEY"], defaultModel: "kimi-k3.1-pro" },
  openrouter: { env: ["OPENROUTER_API_KEY"], defaultModel: "moonshotai/kimi-k2.7-code" },
  "qwen-token-plan": { env: ["QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"], defaultModel: "qwen3.8-max" },
  "qwen-token-plan-cn": {
    env: ["QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
    defaultModel: "qwen3.8-max",
  },
  "qwen-token-plan-individual": {
    env: ["QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
    defaultModel: "qwen3.8-max",
  },
  "qwen-token-plan-individual-cn": {
    env: ["QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
    defaultModel: "qwen3.8-max",
  },
  radius: { env: ["RADIUS_API_KEY"], defaultModel: "balanced" },
  together: { env: ["TOGETHER_API_KEY"], defaultModel: "moonshotai/Kimi-K3" },
  typesafe: { env: ["TYPESAFE_API_KEY"] },
  "vercel-ai-gateway": { env: ["AI_GATEWAY_API_KEY"], defaultModel: "zai/glm-5.3" },
  xai: { env: ["XAI_API_KEY"], defaultModel: "grok-4.7" },
  xiaomi: { env: ["XIAOMI_API_KEY"], defaultModel: "mimo-v2.6-pro" },
  "xiaomi-token-plan-ams": { env: ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"], defaultModel: "mimo-v2.6-pro" },
  "xiaomi-token-plan-cn": { env: ["XIAOMI_TOKEN_PLAN_CN_API_KEY"], defaultModel: "mimo-v2.6-pro" },
  "xiaomi-token-plan-sgp": { env: ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"], defaultModel: "mimo-v2.6-pro" },
  zai: { env: ["ZAI_API_KEY"], defaultModel: "glm-5.3" },
  "zai-coding-cn": { env: ["ZAI_CODING_CN_API_KEY"], defaultModel: "glm-5.3" },
};

/**
 * Providers models.dev has no data for, whose overlay models carry pi 1.6.0's own ids and limits (read
 * from pi-ai's shipped catalog as facts): Kimi For Coding's subscription models.
 */
export const PI16_MODEL_FACTS_FROM_PI: string[] = ["kimi-coding"];

/** pi 1.6.0's provider ids, sorted. */
export const PI16_PROVIDERS: string[] = Object.keys(PI16_PROVIDER_FACTS).sort();

/**
 * The providers whose pi 1.6.0 default model the shipped models.dev data (the pinned package) lacks, so
 * the catalog starts them with their newest model instead, or with none when the data has no models for
 * them. The catalog tests fail when one of these models appears in the data, so the list stays true.
 */
export const PI16_DEFAULTS_NOT_IN_DATA: string[] = [
  "amazon-bedrock",
  "ant-ling",
  "anthropic",
  "azure",
  "baseten",
  "cloudflare-ai-gateway",
  "cloudflare-workers-ai",
  "deepseek",
  "fireworks",
  "github-copilot",
  "google",
  "google-vertex",
  "huggingface",
  "meta",
  "minimax",
  "minimax-cn",
  "mistral",
  "moonshotai",
  "moonshotai-cn",
  "nvidia",
  "openai",
  "openai-codex",
  "opencode",
  "opencode-go",
  "openrouter",
  "qwen-token-plan",
  "qwen-token-plan-cn",
  "qwen-token-plan-individual",
  "qwen-token-plan-individual-cn",
  "radius",
  "together",
  "vercel-ai-gateway",
  "xai",
  "xiaomi",
  "xiaomi-token-plan-ams",
  "xiaomi-token-plan-cn",
  "xiaomi-token-plan-sgp",
  "zai",
  "zai-coding-cn",
];

/**
 * Providers the catalog reaches through another wire protocol than pi 1.6.0's models of that provider
 * use: ours, then pi's. The live comparison fails when one of these starts to agree.
 */
export const API_DIFFERENCES: Record<string, { ours: string; pi16: string[] }> = {
  "github-copilot": { ours: "github-copilot", pi16: ["anthropic-messages", "openai-completions", "openai-responses"] },
  "vercel-ai-gateway": { ours: "openai-completions", pi16: ["anthropic-messages"] },
  xai: { ours: "openai-completions", pi16: ["openai-responses"] },
};
