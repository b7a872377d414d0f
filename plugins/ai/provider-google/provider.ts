/** The AiProviders for the Gemini API and Vertex AI: plain objects, so each plugin generation gets its own. */
import type { AiProvider } from "pi-host";
import { GOOGLE_API, streamGoogle } from "./google-stream.js";
import { VERTEX_API } from "./vertex-config.js";

/** Creates the provider registered under key "google-generative-ai". */
export function createGoogleProvider(): AiProvider {
  return { api: GOOGLE_API, stream: streamGoogle };
}

/** Creates the provider registered under key "google-vertex". */
export function createVertexProvider(): AiProvider {
  return { api: VERTEX_API, stream: streamGoogle };
}
