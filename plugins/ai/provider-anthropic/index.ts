/**
 * provider-anthropic: the `anthropic-messages` wire protocol (Claude, and Anthropic-compatible endpoints
 * configured in models.json) on the official SDK, which is loaded only when a request is made.
 */
import { AiProviderContract } from "pi-host";
import { definePlugin } from "pi-host";
import { ANTHROPIC_API, AnthropicProvider } from "./provider.js";

export default definePlugin({
  id: "provider-anthropic",
  version: "1.0.0",
  description: "Anthropic Messages API provider (anthropic-messages)",
  provides: [AiProviderContract],
  setup(ctx) {
    ctx.provide(AiProviderContract, new AnthropicProvider(), { key: ANTHROPIC_API });
  },
});
