/** The account sign-ins this plugin knows, by provider id, in the order `/login` lists them. */
import { anthropicFlow } from "./anthropic.js";
import type { OAuthFlow } from "./flow.js";
import { githubCopilotFlow } from "./github-copilot.js";
import { kimiCodingFlow } from "./kimi-coding.js";
import { metaFlow } from "./meta.js";
import { openaiChatgptFlow } from "./openai-chatgpt.js";
import { openaiCodexFlow } from "./openai-codex.js";
import { openrouterFlow } from "./openrouter.js";
import { radiusFlow } from "./radius.js";
import { xaiFlow } from "./xai.js";

/** Provider id → its flow. */
export const OAUTH_FLOWS: ReadonlyMap<string, OAuthFlow> = new Map(
  [
    anthropicFlow,
    openaiChatgptFlow,
    openaiCodexFlow,
    githubCopilotFlow,
    openrouterFlow,
    xaiFlow,
    kimiCodingFlow,
    metaFlow,
    radiusFlow,
  ].map((flow) => [flow.id, flow]),
);
