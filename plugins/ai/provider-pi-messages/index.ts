/**
 * provider-pi-messages: pi's own message protocol ("pi-messages"), which the Radius gateway speaks and
 * any backend may implement (a models.json provider with `"api": "pi-messages"`). One POST of
 * `{ model, context, options }` to `<baseUrl>/messages`; the answer is an SSE stream of pi's assistant
 * events, ending with `done` or `error`. No SDK: the host's light fetch sends it.
 */
import { AiProviderContract, definePlugin } from "pi-host";
import { PI_MESSAGES_API, piMessagesProvider } from "./provider.js";

export default definePlugin({
  id: "provider-pi-messages",
  version: "0.1.0",
  description: "pi's own message protocol (the Radius gateway, and backends that speak it)",
  provides: [AiProviderContract],
  setup(ctx) {
    ctx.provide(AiProviderContract, piMessagesProvider, { key: PI_MESSAGES_API });
  },
});
