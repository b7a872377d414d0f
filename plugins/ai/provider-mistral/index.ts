/**
 * provider-mistral: Mistral's native chat completions (`<baseUrl>/v1/chat/completions`, SSE), the
 * "mistral-conversations" api pi 1.6 routes every Mistral model to. Text, thinking chunks (Magistral and
 * the reasoning models), tool calls with Mistral's 9-character ids, cached-prompt usage. Like pi, it
 * talks HTTP directly (no SDK), over the host's light fetch, loaded with the first request.
 */
import { AiProviderContract, definePlugin } from "pi-host";
import { MISTRAL_API, mistralProvider } from "./provider.js";

export default definePlugin({
  id: "provider-mistral",
  version: "0.1.0",
  description: "Mistral models through Mistral's own chat completions API",
  provides: [AiProviderContract],
  setup(ctx) {
    ctx.provide(AiProviderContract, mistralProvider, { key: MISTRAL_API });
  },
});
