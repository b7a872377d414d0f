/**
 * A Claude Pro/Max sign-in (an OAuth access token, `sk-ant-oat...`) is accepted only from Claude Code:
 * the token goes in `Authorization: Bearer` with Claude Code's beta flags and identity headers, and the
 * system prompt starts with Claude Code's line. This is what pi 1.6 sends for such a token.
 */
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages";

/** The first system block an OAuth request must carry. */
export const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";

/** Whether `apiKey` is an Anthropic OAuth access token rather than an API key. */
export function isOAuthToken(apiKey: string): boolean {
  return apiKey.includes("sk-ant-oat");
}

/** The auth and identity headers of an OAuth request. */
export function oauthHeaders(apiKey: string): Record<string, string | null> {
  return {
    "x-api-key": null,
    authorization: `Bearer ${apiKey}`,
    "anthropic-beta": "claude-code-20250219,oauth-2025-04-20",
    "anthropic-dangerous-direct-browser-access": "true",
    "user-agent": "claude-cli/2.1.322",
    "x-app": "cli",
  };
}

/** `body` with Claude Code's line as the first system block (the caller's prompt follows it). */
export function withClaudeCodeSystem(body: MessageCreateParamsStreaming): MessageCreateParamsStreaming {
  const system = Array.isArray(body.system) ? body.system : [];
  const cache = system[0]?.cache_control;
  return {
    ...body,
    system: [{ type: "text", text: CLAUDE_CODE_IDENTITY, ...(cache ? { cache_control: cache } : {}) }, ...system],
  };
}
