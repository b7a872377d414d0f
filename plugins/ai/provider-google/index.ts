/**
 * provider-google: the Google Generative AI (Gemini) API and Vertex AI on the official `@google/genai`
 * SDK. Text, thinking with thought signatures, function calling, images; errors end the stream as data.
 */
import { AiProviderContract } from "pi-host";
import { definePlugin } from "pi-host";
import { GOOGLE_API } from "./google-stream.js";
import { createGoogleProvider, createVertexProvider } from "./provider.js";
import { VERTEX_API } from "./vertex-config.js";

export default definePlugin({
  id: "provider-google",
  version: "0.1.0",
  description: "Gemini models through the Google Generative AI API and Vertex AI",
  provides: [AiProviderContract],
  setup(ctx) {
    ctx.provide(AiProviderContract, createGoogleProvider(), { key: GOOGLE_API });
    ctx.provide(AiProviderContract, createVertexProvider(), { key: VERTEX_API });
  },
});
